/** English, the default, whole: the core's texts and every part's. */
import { enCore } from './en-core.js';
import { enPhone, enResults, enSbpBanks, enUpiApps } from './en-parts.js';
import type { Translation } from './translation.js';

export const en: Translation = { ...enCore, ...enPhone, ...enUpiApps, ...enSbpBanks, ...enResults };
