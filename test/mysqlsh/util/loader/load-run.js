'use strict';
// The steps of one util.loadDump run after the dump was opened, in the Shell's order:
// preamble → schema DDL, table DDL and view placeholders of every schema → the real views →
// per table: data, deferred indexes, analyze → per schema: triggers, deferred foreign keys →
// postamble. Sequential, on one session. A table with missing data files never completes, so
// its indexes, its schema's triggers and foreign keys, and the postamble do not run.
const { DataLoader } = require('./data-loader');
const { DdlRunner, LoadAborted } = require('./ddl-runner');
const { splitStatements } = require('./ddl-script');
const { splitDeferredIndexes, indexStatements, foreignKeyStatements, keyName } = require('./deferred-indexes');
const { qualified, quote } = require('./load-filters');

const WORKER = '[Worker000]: ';

// Statements of a routine/event/trigger section survive only when the filters keep that object.
function sectionFilter(schema, filters, table) {
  return (statement) => {
    const sec = statement.section;
    if (!sec) return true;
    const dot = sec.name.indexOf('.');
    const name = dot >= 0 ? sec.name.slice(dot + 1) : sec.name;
    if (sec.type === 'procedure' || sec.type === 'function') return filters.routineIncluded(schema, name);
    if (sec.type === 'event') return filters.eventIncluded(schema, name);
    if (sec.type === 'trigger') return filters.triggerIncluded(schema, table, name);
    return true;
  };
}

// With the `schema` option the CREATE DATABASE and USE of the schema script name the target.
function schemaOverride(target) {
  return (sql) => {
    if (/^CREATE\s+(DATABASE|SCHEMA)\b/i.test(sql)) return `CREATE DATABASE IF NOT EXISTS ${quote(target)}`;
    if (/^USE\s/i.test(sql)) return `USE ${quote(target)}`;
    return sql;
  };
}

class LoadRun {
  constructor(ctx) {
    // ctx: { session, out, profile, opts, filters, dumpDir, root, doneInfo, plan, progress, mariadb, skipDdlOf }
    Object.assign(this, ctx);
    this.ddl = new DdlRunner({ session: ctx.session, out: ctx.out, mariadb: ctx.mariadb });
    this.stats = { chunks: 0, rows: 0, bytes: 0, replaced: 0, warnings: 0, errors: 0,
      tablesLoaded: new Set(), schemasLoaded: new Set(), dataMs: 0 };
    this.data = new DataLoader({
      session: ctx.session, out: ctx.out, dumpDir: ctx.dumpDir, progress: ctx.progress,
      charset: ctx.opts.characterSet || ctx.root.defaultCharacterSet || 'utf8mb4',
      chunkFileBytes: ctx.doneInfo.chunkFileBytes, stats: this.stats, ddl: this.ddl,
    });
    this.dataPending = false;
  }

  get errors() { return this.ddl.errors + this.stats.errors; }

  // Runs a step unless the progress log has it DONE; records start and end.
  step(step, fn) {
    if (this.progress.isDone(step)) return;
    this.progress.start(step);
    fn();
    this.progress.done(step);
  }

  // Returns normally when everything present was loaded; throws LoadAborted on the first error.
  // As in the Shell: all schema and table DDL (views as placeholders) first, then the real views,
  // then the data table by table; a schema's triggers and foreign keys once all its data is in.
  execute() {
    const { opts } = this;
    if (opts.loadDdl) this.runAmble('@.sql', 'Executing common preamble SQL', 'common preamble SQL');
    const deferred = new Map();
    for (const schema of this.plan) {
      if (opts.loadDdl) this.schemaDdl(schema);
      for (const table of schema.tables) deferred.set(table, this.tableDdl(schema, table));
      if (opts.loadDdl && schema.includesViewsDdl) this.viewDdl(schema, '.pre.sql');
    }
    for (const schema of this.plan) if (opts.loadDdl && schema.includesViewsDdl) this.viewDdl(schema, '.sql');
    if (opts.loadData && !opts.showProgress && this.plan.some((s) => s.tables.some((t) => t.includesData))) {
      this.out.print('Loading data...');
    }
    for (const schema of this.plan) {
      let schemaComplete = true;
      for (const table of schema.tables) {
        const t0 = Date.now();
        const complete = opts.loadData ? this.data.loadTable(table, schema.target) : true;
        this.stats.dataMs += Date.now() - t0;
        if (!complete) { schemaComplete = false; this.dataPending = true; continue; }
        this.afterData(schema, table, deferred.get(table));
      }
      if (schemaComplete) this.schemaEnd(schema, deferred);
    }
    if (this.dataPending) return;
    if (opts.loadDdl) this.runAmble('@.post.sql', 'Executing common postamble SQL', 'common postamble SQL');
  }

  runAmble(file, line, what) {
    const text = this.dumpDir.readOptionalText(file);
    if (text === null) return;
    this.out.print(line);
    this.ddl.runScript(text, { what });
  }

  schemaDdl(schema) {
    if (!schema.includesDdl) return;
    const target = schema.target;
    this.step({ op: 'SCHEMA-DDL', schema: target }, () => {
      const transform = target !== schema.name ? schemaOverride(target) : (s) => s;
      const keep = sectionFilter(schema.name, this.filters);
      const what = `schema ${quote(target)}`;
      this.ddl.runScript(this.dumpDir.readText(`${schema.basename}.sql`), { what, keep, transform });
      for (const part of schema.multifileDdl) {
        this.ddl.execute(`USE ${quote(target)}`, what);
        this.ddl.runScript(this.dumpDir.readText(part), { what, keep });
      }
    });
  }

  // Runs the table's CREATE (deferred indexes cut out); returns the deferred definitions.
  tableDdl(schema, table) {
    const deferred = { indexes: [], foreignKeys: [], checkExisting: false };
    if (!table.includesDdl) return deferred;
    const mode = this.opts.deferTableIndexes;
    const split = (sql) => {
      const s = splitDeferredIndexes(sql, mode);
      deferred.indexes.push(...s.indexes);
      deferred.foreignKeys.push(...s.foreignKeys);
      return s.sql;
    };
    const script = this.dumpDir.readText(`${table.basename}.sql`);
    const target = schema.target;
    const done = this.progress.isDone({ op: 'TABLE-DDL', schema: target, table: table.name });
    if (!this.opts.loadDdl || done || this.skipDdlOf.has(`${target}\u0000${table.name}`)) {
      // Not created now: the deferred definitions are still parsed (the Shell re-adds them; §6).
      splitStatements(script).forEach((s) => split(s.sql));
      deferred.checkExisting = done || this.opts.ignoreExistingObjects;
      return deferred;
    }
    this.step({ op: 'TABLE-DDL', schema: target, table: table.name }, () => {
      this.ddl.execute(`USE ${quote(target)}`, `table ${qualified([target, table.name])}`, WORKER);
      this.ddl.runScript(script, { what: `table ${qualified([target, table.name])}`, prefix: WORKER, transform: split });
    });
    return deferred;
  }

  // `.pre.sql` creates a placeholder for every view before the data; `.sql` the real view at the end.
  viewDdl(schema, suffix) {
    for (const view of schema.views) {
      if (this.skipDdlOf.has(`${schema.target}\u0000${view.name}`)) continue;
      const what = `view ${qualified([schema.target, view.name])}`;
      this.ddl.execute(`USE ${quote(schema.target)}`, what);
      this.ddl.runScript(this.dumpDir.readText(`${view.basename}${suffix}`), { what });
    }
  }

  afterData(schema, table, deferred) {
    const target = schema.target;
    const name = qualified([target, table.name]);
    if (this.opts.loadIndexes && deferred.indexes.length) {
      const indexes = this.notOnTarget(schema, table, deferred, deferred.indexes);
      this.step({ op: 'TABLE-INDEX', schema: target, table: table.name }, () => {
        for (const sql of indexStatements(target, table.name, indexes)) this.ddl.execute(sql, `table ${name}`, WORKER);
      });
    }
    const analyze = this.opts.analyzeTables;
    if (analyze === 'on' || (analyze === 'histogram' && table.histograms.length)) {
      this.step({ op: 'TABLE-ANALYZE', schema: target, table: table.name }, () => {
        if (table.histograms.length) {
          for (const h of table.histograms) {
            this.ddl.execute(`ANALYZE TABLE ${name} UPDATE HISTOGRAM ON ${quote(h.column)} WITH ${Number(h.buckets)} BUCKETS`, `table ${name}`, WORKER);
          }
        } else {
          this.ddl.execute(`ANALYZE TABLE ${name}`, `table ${name}`, WORKER);
        }
      });
    }
  }

  // Deferred definitions to add. Only when the table DDL was not run now (DONE earlier, or an
  // ignored existing table) are the ones the table already has left out (§6: dump_loader.cc:1234-1241).
  notOnTarget(schema, table, deferred, definitions) {
    if (!deferred.checkExisting) return definitions;
    const name = qualified([schema.target, table.name]);
    const create = String(this.ddl.execute(`SHOW CREATE TABLE ${name}`, `table ${name}`, WORKER).rows[0][1]);
    return definitions.filter((d) => !keyName(d) || !create.includes(`${quote(keyName(d))} `));
  }

  // After all data of the schema: triggers, then the deferred foreign keys.
  schemaEnd(schema, deferred) {
    const target = schema.target;
    if (this.opts.loadDdl) {
      for (const table of schema.tables) {
        if (!table.includesDdl || !table.triggers.length) continue;
        this.step({ op: 'TRIGGERS-DDL', schema: target, table: table.name }, () => {
          const what = `triggers for ${qualified([target, table.name])}`;
          this.ddl.execute(`USE ${quote(target)}`, what);
          this.ddl.runScript(this.dumpDir.readText(`${table.basename}.triggers.sql`),
            { what, keep: sectionFilter(schema.name, this.filters, table.name) });
        });
      }
    }
    if (!this.opts.loadIndexes) return;
    for (const table of schema.tables) {
      const what = `table ${qualified([target, table.name])}`;
      const d = deferred.get(table);
      for (const sql of foreignKeyStatements(target, table.name, this.notOnTarget(schema, table, d, d.foreignKeys))) {
        this.ddl.execute(`USE ${quote(target)}`, what);
        this.ddl.execute(sql, what);
      }
    }
  }
}

module.exports = { LoadRun, LoadAborted };
