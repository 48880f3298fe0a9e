// The custom-elements manifest (custom-elements.json, published with the package) is generated from the JSDoc of
// the element's class: `npm run build:cem`. Its module paths are rewritten from the sources (src/widget/x.ts) to
// the files the package ships (dist/widget/x.js), which is what tools reading the manifest import.
const toDist = (path) => path.replace(/^(\.\/)?src\/(.+)\.ts$/, 'dist/$2.js');

function rewritePaths(node) {
  if (Array.isArray(node)) return node.forEach(rewritePaths);
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'path' || key === 'module') && typeof value === 'string') node[key] = toDist(value);
    else rewritePaths(value);
  }
}

export default {
  globs: ['src/widget/**/*.ts'],
  exclude: ['src/widget/**/*.d.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  packagejson: true,
  plugins: [{ name: 'dist-paths', packageLinkPhase: ({ customElementsManifest }) => rewritePaths(customElementsManifest) }],
};
