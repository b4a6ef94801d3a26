// The plugin's own version (kept equal to package.json's).
module.exports = { PLUGIN_VERSION: '0.1.0' };
