import { invalidInput } from '@session-ledger/core';
import { ROLES, TURN_OUTCOMES, type Role, type TurnOutcome } from './session/common.js';

/**
 * The one parser of the values a person types on every face (CLI options, HTTP bodies and queries):
 * durations, roles and turn outcomes. `field` names the value in the message and in the error's
 * details, so each face passes the name it shows (the CLI `--ttl`, HTTP `ttl`).
 */
export const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A duration such as 500ms, 30s, 5m, 12h, 1d or 2w. */
export const DURATION_PATTERN = '^[0-9]{1,12}(ms|s|m|h|d|w)$';

const fieldOf = (label: string): string => label.replace(/^--/, '');

/** Exactly DURATION_PATTERN, as the OpenAPI document publishes it: nothing around it (white space, a BOM) is taken. */
export const parseDuration = (label: string, text: string): number => {
  const match = new RegExp(DURATION_PATTERN).exec(text);
  if (!match) throw invalidInput(`${label} must be a duration such as 30s, 5m, 12h or 1d: ${JSON.stringify(text)}`, fieldOf(label));
  return Number(text.slice(0, -match[1]!.length)) * DURATION_UNITS[match[1]!]!;
};

const oneOf = <T extends string>(label: string, choices: readonly T[], text: string): T => {
  if (!(choices as readonly string[]).includes(text)) throw invalidInput(`${label} must be one of ${choices.join(', ')}: ${JSON.stringify(text)}`, fieldOf(label));
  return text as T;
};

export const parseRole = (label: string, text: string): Role => oneOf(label, ROLES, text);

export const parseOutcome = (label: string, text: string): TurnOutcome => oneOf(label, TURN_OUTCOMES, text);

/** `user,assistant`: roles separated by commas, each known; duplicates collapse. */
export const parseRoles = (label: string, text: string): Role[] => {
  const roles = text.split(',').map((role) => role.trim());
  if (roles.some((role) => role === '')) throw invalidInput(`${label} needs roles separated by commas (${ROLES.join(', ')}): ${JSON.stringify(text)}`, fieldOf(label));
  return [...new Set(roles.map((role) => parseRole(label, role)))];
};
