import { Immer } from 'immer';

/**
 * The Immer instance every session projection folds with. A whole history is folded inside ONE
 * draft; views are not deep-frozen (freezing 100k messages would cost more than folding them),
 * so callers treat views as read-only by convention and fold again to change them.
 */
const immer = new Immer({ autoFreeze: false });

export const produce: Immer['produce'] = immer.produce;
