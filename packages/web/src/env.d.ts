// esbuild bundles imported CSS into the entry's stylesheet.
declare module '*.css';
