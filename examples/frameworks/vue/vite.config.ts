import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

export default defineConfig({
  // <video-plugin> is a custom element, not a Vue component: Vue leaves it to the browser.
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'video-plugin' } } })],
});
