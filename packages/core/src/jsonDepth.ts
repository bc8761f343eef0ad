/**
 * JSON nested deeper than this is refused before it is parsed, wherever JSON text enters (an HTTP
 * body, a CLI option or file, an imported export, a Hermes column): nothing the ledger stores needs
 * it, and the recursion that walks such a value is how it crashes a process.
 */
export const MAX_JSON_DEPTH = 100;

/** Whether JSON text nests arrays and objects deeper than `max`, counted outside strings, without parsing it. */
export const nestsDeeperThan = (text: string, max: number = MAX_JSON_DEPTH): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i += 1;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 || code === 123) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 93 || code === 125) depth -= 1;
  }
  return false;
};
