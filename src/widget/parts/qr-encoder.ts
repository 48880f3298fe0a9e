/** The qr-encoder part: the QR encoder, for a payment that came without its matrix (part-types.ts). */
export { qrMatrix } from '../../shared/qr-matrix.js';
