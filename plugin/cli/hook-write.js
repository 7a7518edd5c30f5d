// What hook mode loads only when it writes an entry or looks for a hint: the recorder with the wasm core, and
// recall's hint; and the warm hook helper, which holds them. Literal imports, so a bundle of this module holds
// them: plugin/hook-write.bundle.cjs (scripts/build.sh), which hook mode's own bundle loads for those calls; the
// CLI bundle bundles it too and runs hook mode whole where the other two are missing.

export const hookModules = {
  core: () => import("../core.js"),
  recorder: () => import("../recorder.js"),
  recallHook: () => import("../recall/hook.js"),
  // The warm helper's server (`record hook --serve`), which runs what the three above load: here rather than in
  // hook mode's own bundle, which every passing command compiles.
  helper: () => import("./hook-helper.js"),
};
