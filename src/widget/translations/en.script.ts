/**
 * English in the script-tag build (vite.config.ts puts this module in place of en.ts): the core's texts only. Each
 * part brings the English of its own screens (en-parts.ts) and catalog.script.ts adds it here when the part loads,
 * before the part draws anything; until then nothing reads those texts, since only the part's screens use them.
 * The object is the one pick.ts hands out for English, so every element sees the texts once they are here.
 */
import { enCore } from './en-core.js';
import type { Translation } from './translation.js';

export const en = { ...enCore } as Translation;
