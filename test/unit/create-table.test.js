'use strict';
// CREATE TABLE parsing (lib/snapshot/table-ddl.js): the columns masks are checked against.
const { expect } = require('chai');
const { readDumpMetadata } = require('../../lib/dump/dump-model.js');
const { fakeHost } = require('../support/fake-host.js');
const tableDdl = require('../../lib/snapshot/table-ddl.js');

describe('CREATE TABLE parsing (lib/snapshot/table-ddl.js)', function () {
  it('reads columns (type, NULL, generated, length), unique and primary key columns and foreign keys from SHOW CREATE TABLE text', function () {
    const sql = 'CREATE TABLE IF NOT EXISTS `c``s` (\n' +
      '  `id` int NOT NULL AUTO_INCREMENT,\n' +
      '  `e mail` varchar(200) NOT NULL,\n' +
      '  `note` text,\n' +
      '  `lower_mail` varchar(200) GENERATED ALWAYS AS (lower(`e mail`)) VIRTUAL,\n' +
      '  PRIMARY KEY (`id`),\n' +
      '  UNIQUE KEY `m` (`e mail`,`note`(10)),\n' +
      '  KEY `n` (`note`(20)),\n' +
      '  CONSTRAINT `c_fk` FOREIGN KEY (`id`, `e mail`) REFERENCES `other``s`.`p` (`a`, `b`) ON DELETE CASCADE,\n' +
      '  CONSTRAINT `self` FOREIGN KEY (`id`) REFERENCES `c``s` (`id`)\n' +
      ') ENGINE=InnoDB;';
    expect(tableDdl.parseCreateTable(sql)).to.deep.equal({
      columns: {
        id: { type: 'int', nullable: false, generated: false, maxLength: null },
        'e mail': { type: 'varchar', nullable: false, generated: false, maxLength: 200 },
        note: { type: 'text', nullable: true, generated: false, maxLength: 65535 },
        lower_mail: { type: 'varchar', nullable: true, generated: true, maxLength: 200 },
      },
      unique: { id: true, 'e mail': true, note: true },
      primary: ['id'],
      foreignKeys: [
        { name: 'c_fk', columns: ['id', 'e mail'], refSchema: 'other`s', refTable: 'p', refColumns: ['a', 'b'] },
        { name: 'self', columns: ['id'], refSchema: null, refTable: 'c`s', refColumns: ['id'] },
      ],
    });
    expect(tableDdl.parseCreateTable('CREATE VIEW `v` AS SELECT 1')).to.equal(null);
    expect(tableDdl.isStringType('varchar')).to.equal(true);
    expect(tableDdl.isStringType('int')).to.equal(false);
  });

  it('reads the dump\'s table DDL for the tables asked about, through the dump model (the sample dump, in memory)', function () {
    const host = fakeHost({ mount: { '/d': 'sample-dumps/shop' } });
    const dump = readDumpMetadata(host, '/d');
    const got = tableDdl.dumpTableColumns(host, dump, [{ schema: 'copy', dumpSchema: 'shop', table: 'customers' },
      { schema: 'shop', dumpSchema: 'shop', table: 'no such table' }]);
    const c = got[JSON.stringify(['copy', 'customers'])];
    expect(Object.keys(c.columns)).to.deep.equal(['id', 'name', 'email', 'created_at']);
    expect(c.unique).to.deep.equal({ id: true, email: true });
    expect(got[JSON.stringify(['shop', 'no such table'])], 'not in the dump: null').to.equal(null);
    // A table whose DDL file the dump lacks: null (its columns are then read from the server after the load).
    host.files.remove(['/d/shop@customers.sql']);
    const without = tableDdl.dumpTableColumns(host, readDumpMetadata(host, '/d'), [{ schema: 'shop', dumpSchema: 'shop', table: 'customers' }]);
    expect(without[JSON.stringify(['shop', 'customers'])]).to.equal(null);
  });
});
