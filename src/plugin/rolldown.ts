import type { Plugin } from 'rolldown';
import { agentScorers as create, type Options } from './index.js';

export type { Options };
/** The plugin typed as a rolldown plugin; the object is the same on every host. */
export const agentScorers = create as (options?: Options) => Plugin;
export default agentScorers;
