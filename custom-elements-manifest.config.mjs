// The custom-elements manifest (custom-elements.json, published with the package) is generated from the JSDoc of
// the element's class: `npx cem analyze --config custom-elements-manifest.config.mjs`.
export default {
  globs: ['src/widget/**/*.ts'],
  exclude: ['src/widget/**/*.d.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  packagejson: true,
};
