export * from './atomicWrite.js';
export * from './mirrorState.js';
export * from './markdownMirror.js';
export * from './hermesEntries.js';
export * from './handEdits.js';
export * from './adopt.js';
