var dumpRun = require('../../lib/run/dump-run.js').dumpRun;
var dumpMemberOptions = require('../../lib/options/dump-options.js').dumpMemberOptions;

module.exports = {
  name: 'dump',
  definition: {
    brief: 'Dumps the instance, some schemas or some tables with util.dump*, using a preset.',
    details: [
      'Without schemas or schema it calls util.dumpInstance; with schemas: [...] util.dumpSchemas; with ' +
      'schema and tables util.dumpTables (MySQL Shell 8.0.22 and later).',
      'preset names a dump preset (restore.presets() lists them: backup, dev-snapshot, and your own from ' +
      '~/.mysqlsh/restore/presets.json); options given explicitly override the preset. Options the running ' +
      'MySQL Shell does not know are refused before anything runs, with the nearest valid name.',
      'Prints the effective call before it starts and returns it: function, outputDir, preset and options.',
    ],
    parameters: [
      { name: 'outputDir', type: 'string', brief: 'Where to write the dump (must not exist or be empty)' },
      { name: 'options', type: 'dictionary', required: false, brief: 'What to dump, the preset, and util.dump* options',
        options: [
          { name: 'preset', type: 'string', brief: 'A dump preset: backup, dev-snapshot or one of yours' },
          { name: 'schemas', type: 'array', itemtype: 'string', brief: 'Dump these schemas (util.dumpSchemas)' },
          { name: 'schema', type: 'string', brief: 'The schema of tables (util.dumpTables)' },
          { name: 'tables', type: 'array', itemtype: 'string', brief: 'Dump these tables of schema (util.dumpTables)' },
        ].concat(dumpMemberOptions().filter(function (o) { return o.name !== 'schemas'; })) },
    ],
    cli: true,
  },
  run: function (host, args) { return dumpRun(host, args[0], args[1] || {}); },
};
