// `npm run dev`: Vite serves the page and passes /api/… to the back end (`npm run server`, port
// 3000). `npm run build` writes dist/, which the back end serves itself (`npm start`).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
});
