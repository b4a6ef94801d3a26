var output = require('../../lib/format/output.js');

function filterOption(name, example) {
  return { name: name, type: 'array', brief: 'As util.loadDump\'s ' + name + ', e.g. ' + example + ' (default: ' +
    (name.indexOf('include') === 0 ? 'all' : 'none') + ')' };
}

module.exports = {
  name: 'analyze',
  definition: {
    brief: 'Runs ANALYZE TABLE (and histogram updates) on the tables of a dump or of chosen schemas.',
    details: [
      'Fresh index statistics after a bulk load make the optimizer choose the right plans. restore.load does ' +
      'this itself with analyze: "on"; use this member to run it on its own, for example after a load that ' +
      'did not.',
      'With dumpDir, the tables are those the dump holds (after the filters given), under the names they ' +
      'were loaded with; mode "histogram" also rebuilds the histograms the dump\'s table metadata lists ' +
      '(UPDATE HISTOGRAM on MySQL, PERSISTENT FOR COLUMNS on MariaDB). Without dumpDir, the base tables of ' +
      'includeSchemas / includeTables on the server are analyzed.',
      'Tables are analyzed in batches; a failure is reported for its tables and the others go on. The facts: ' +
      'tables, histograms, statements, problems.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.analyze({includeSchemas: ["shop"]}), or mysqlsh root@host -- restore analyze ' +
      '--dump-dir=./dump --mode=histogram',
    ],
    parameters: [
      { name: 'selection', type: 'dictionary', required: false, brief: 'What to analyze',
        options: [
          { name: 'dumpDir', type: 'string', brief: 'Analyze the tables this dump holds (default: none, the filters choose)' },
          filterOption('includeSchemas', '["shop"]'),
          filterOption('excludeSchemas', '["shop_archive"]'),
          filterOption('includeTables', '["shop.orders"]'),
          filterOption('excludeTables', '["shop.audit_log"]'),
          { name: 'schema', type: 'string',
            brief: 'The schema a single-schema dump was loaded into (util.loadDump\'s schema option; default: the dump\'s)' },
          { name: 'mode', type: 'string', values: ['on', 'histogram'],
            brief: 'on (default): ANALYZE TABLE; histogram: also the dump\'s histograms' },
          output.outputFormatOption(),
        ] },
    ],
    cli: true,
  },
  command: 'lib/commands/analyze.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], command.analyzeMember); },
};
