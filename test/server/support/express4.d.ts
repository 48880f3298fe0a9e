// Express 4 installed beside Express 5 under the alias `express4`: its API is the one @types/express describes.
declare module 'express4' {
  import express from 'express';
  export default express;
}
