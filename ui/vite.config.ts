import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

export default defineConfig(({ mode }) => ({
  plugins: [svelte()],
  // The app loads the UI from its own protocol, so every asset path must be relative.
  base: "./",
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari16",
    // The Content-Security-Policy forbids inline scripts; keep every asset a separate file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  // Component tests need Svelte's browser build, not its server build.
  resolve: mode === "test" ? { conditions: ["browser"] } : undefined,
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/test/setup.ts"],
  },
}));
