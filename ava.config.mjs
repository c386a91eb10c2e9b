export default {
  files: ["packages/*/dist/**/*_test.js", "test/dist/**/*_test.js", "tools/dist/**/*_test.js"],
  timeout: "120s",
};
