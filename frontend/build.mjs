// Bundles src/memory-panel.ts (Lit, the translations) into one ES module:
//   node build.mjs [outfile]   (default: ../custom_components/memory/frontend/memory-panel.js)
// The same sources and lock file give a byte-identical file (no timestamps, no absolute paths):
// tests/test_panel_build.py rebuilds it and fails when the committed file differs.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.resolve(
  process.argv[2] ?? path.join(here, "..", "custom_components", "memory", "frontend", "memory-panel.js"),
);

await build({
  absWorkingDir: here,
  entryPoints: ["src/memory-panel.ts"],
  outfile,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  sourcemap: false,
  logLevel: "warning",
});
