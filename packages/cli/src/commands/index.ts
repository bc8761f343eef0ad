import type { Command } from 'commander';
import { registerAudit } from './audit.js';
import { registerEvents } from './events.js';
import { registerImport } from './import.js';
import { registerMemory } from './memory.js';
import { registerMigrate } from './migrate.js';
import { registerProjections } from './projections.js';
import { registerServe } from './serve.js';
import { registerRetention } from './retention.js';
import { registerMessages } from './messages.js';
import { registerSessions } from './sessions.js';
import { registerSessionsSearch } from './sessionsSearch.js';
import { registerSubscribers } from './subscribers.js';
import { registerTurns } from './turns.js';

/** Every command group, one file each. A new group adds one line here. */
export const COMMAND_GROUPS: Array<(program: Command) => void> = [registerEvents, registerAudit, registerServe, registerSessions, registerSessionsSearch, registerRetention, registerTurns, registerMessages, registerMemory, registerImport, registerMigrate, registerSubscribers, registerProjections];
