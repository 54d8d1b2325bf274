// `npm run dev`: Vite serves the page and passes /api/… to the back end (`npm run server`, port
// 3000). `npm run build` writes dist/, which the back end serves itself (`npm start`).
import { defineConfig } from 'vite';

export default defineConfig({
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
});
