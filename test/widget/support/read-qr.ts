/** Reads a drawn QR back as a phone camera would, for the QR tests. */
import jsQRModule from 'jsqr';

// jsqr is CommonJS: served as an ES module its default export is the function itself.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

/** Draws the SVG as the browser shows it, at its own size, and reads it back with a QR reader. */
export async function decode(svg: SVGSVGElement): Promise<string | undefined> {
  const width = svg.width.baseVal.value;
  const markup = new XMLSerializer().serializeToString(svg);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = width;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0, width, width);
  const pixels = context.getImageData(0, 0, width, width);
  return jsQR(pixels.data, width, width)?.data;
}
