import { readdirSync, readFileSync } from 'node:fs';

/**
 * The worker processes of a `serve --workers N` primary: the processes whose parent is `pid`
 * (node:cluster forks them), read from /proc (Linux; elsewhere, none). For watching what the
 * server uses (CPU, memory) or which of its processes is which; the tests and the bench use it.
 */
export const workerPids = (pid: number): number[] => {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return []; // no /proc
  }
  return names
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        // After the command name (in parentheses, which may hold spaces): the state, then the parent's pid.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
};
