/**
 * The languages beyond English, by primary subtag: the one list that the build (a file for each, vite.config.ts),
 * both loaders (languages.ts, languages.script.ts), the package's exports and the tests read. Adding a language is
 * a translation file named by its tag, its tag here and its line in languages.ts (the type makes that line required).
 */
export const LANGUAGE_TAGS = ['ru', 'hi', 'bn', 'te', 'mr', 'ta', 'gu', 'kn', 'ml', 'pa', 'or', 'ur'] as const;

export type LanguageTag = (typeof LANGUAGE_TAGS)[number];
