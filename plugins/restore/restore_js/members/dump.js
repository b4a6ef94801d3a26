var output = require('../../lib/format/output.js');
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
      'Prints the effective call before it starts. The facts: function, outputDir, preset and options.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.dump("./dump", {preset: "backup", schemas: ["shop"]}), or from the command line: ' +
      'mysqlsh root@host -- restore dump ./dump --preset=backup --schemas=shop',
    ],
    parameters: [
      { name: 'outputDir', type: 'string', brief: 'Where to write the dump (must not exist or be empty)' },
      { name: 'options', type: 'dictionary', required: false, brief: 'What to dump, the preset, and util.dump* options',
        options: [
          { name: 'preset', type: 'string', brief: 'A dump preset: backup, dev-snapshot or one of yours (default: none, util.dump*\'s own defaults)' },
          { name: 'schemas', type: 'array', itemtype: 'string', brief: 'Dump these schemas (util.dumpSchemas; default: the whole instance)' },
          { name: 'schema', type: 'string', brief: 'The schema of tables (util.dumpTables; default: none)' },
          { name: 'tables', type: 'array', itemtype: 'string', brief: 'Dump these tables of schema (util.dumpTables; default: none)' },
        ].concat(dumpMemberOptions().filter(function (o) { return o.name !== 'schemas'; }))
          .concat([output.outputFormatOption()]) },
    ],
    cli: true,
  },
  command: 'lib/commands/dump.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.dumpRun(h, args[0], options || {}); });
  },
};
