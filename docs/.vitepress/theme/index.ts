// The docs site's theme: VitePress's default theme, with tables that fit a laptop's and a phone's
// column (tables.css; the check in scripts/docs.mjs measures them).
import DefaultTheme from 'vitepress/theme';
import './tables.css';

export default DefaultTheme;
