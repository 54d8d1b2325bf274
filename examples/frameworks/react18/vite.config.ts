import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // In this repository video-plugin is the workspace root, whose node_modules holds React 19: one
  // React, this app's 18, for video-plugin/react too. (A partner's app has one React anyway.)
  resolve: { dedupe: ['react', 'react-dom'] },
});
