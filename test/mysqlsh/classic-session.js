'use strict';
// A ClassicSession shaped like mysqlsh's (plugin-runtime.md §5): synchronous runSql with `?`/`!`
// placeholders over ONE real connection, results with fetchOne/fetchAll, rows indexable by
// position and column name, errors carrying the server's code and message.
const { substitute } = require('./sql-placeholders');
const { shellThrowable } = require('./shell-errors');

function toShellValue(v) {
  if (Buffer.isBuffer(v)) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  if (v instanceof Uint8Array) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
  return v;
}

const RESERVED_ROW_NAMES = new Set(['length', 'getField', 'help', 'getLength']);

class Row {
  constructor(columns, values) {
    Object.defineProperty(this, '_columns', { value: columns });
    values.forEach((v, i) => { this[i] = v; });
    Object.defineProperty(this, 'length', { value: values.length, enumerable: false });
    columns.forEach((c, i) => {
      if (/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(c) && !RESERVED_ROW_NAMES.has(c) && !(c in this)) {
        Object.defineProperty(this, c, { value: values[i], enumerable: false });
      }
    });
  }
  getField(name) {
    const i = this._columns.indexOf(name);
    if (i < 0) throw new Error(`Field ${name} does not exist`);
    return this[i];
  }
  getLength() { return this.length; }
  toString() { return `[${Array.from({ length: this.length }, (_, i) => JSON.stringify(this[i])).join(', ')}]`; }
}

class ClassicResult {
  constructor(raw, warnings, elapsedMs) {
    this._columns = raw.columns.map((c) => c.name);
    this._columnInfo = raw.columns;
    this._rows = raw.rows.map((r) => new Row(this._columns, r.map(toShellValue)));
    this._pos = 0;
    this._affected = raw.affected || 0;
    this._insertId = raw.insertId || 0;
    this._warnings = warnings;
    this._info = raw.info || '';
    this._elapsed = elapsedMs;
  }
  fetchOne() { return this._pos < this._rows.length ? this._rows[this._pos++] : null; }
  fetchAll() { const rest = this._rows.slice(this._pos); this._pos = this._rows.length; return rest; }
  fetchOneObject() {
    const r = this.fetchOne();
    if (!r) return null;
    const o = {};
    this._columns.slice().sort().forEach((c) => { o[c] = r[this._columns.indexOf(c)]; });
    return o;
  }
  hasData() { return this._columns.length > 0; }
  nextResult() { return false; }
  getColumnNames() { return this._columns.slice(); }
  getColumnCount() { return this._columns.length; }
  getColumns() { return this._columnInfo.map((c) => ({ columnLabel: c.name, columnName: c.name, tableName: c.table })); }
  getAffectedItemsCount() { return this._affected; }
  getAutoIncrementValue() { return this._insertId; }
  getWarningsCount() { return this._warnings.length; }
  getWarnings() { return this._warnings; }
  getExecutionTime() { return `${(this._elapsed / 1000).toFixed(4)} sec`; }
  getInfo() { return this._info; }
  get affectedItemsCount() { return this._affected; }
  get autoIncrementValue() { return this._insertId; }
  get warningsCount() { return this._warnings.length; }
  get warnings() { return this._warnings; }
  get columnNames() { return this.getColumnNames(); }
  get columnCount() { return this._columns.length; }
  get executionTime() { return this.getExecutionTime(); }
  get info() { return this._info; }
  toString() { return '<ClassicResult>'; }
}

// sqlHooks: functions (sql, session) -> raw result | undefined, tried in order before the server
// (the MySQL personality and fault injection live there).
class ClassicSession {
  constructor({ bridge, uri, profile, sqlHooks = [], onStatement = null }) {
    this._bridge = bridge;
    this._uri = uri;
    this._profile = profile;
    this._hooks = sqlHooks;
    this._onStatement = onStatement;
    const opened = bridge.call('sql.open', { uri });
    this._id = opened.id;
    this._threadId = opened.threadId;
    this._open = true;
  }

  _throw(message, code, type = 'MySQL Error') {
    throw shellThrowable(this._profile, type, message, code, 'ClassicSession.runSql');
  }

  // The statement as the server gets it, no placeholders; used by the stand-in's own utilities too.
  execute(sql) {
    if (!this._open) this._throw('Not connected.', undefined, 'LogicError');
    if (this._onStatement) this._onStatement(sql);
    for (const hook of this._hooks) {
      const r = hook(sql, this);
      if (r) return r;
    }
    return this._bridge.call('sql.query', { id: this._id, sql });
  }

  runSql(query, args) {
    if (typeof query !== 'string') this._throw('Argument #1 is expected to be a string', undefined, 'TypeError');
    if (!query.trim()) this._throw('No query specified.', undefined, 'ArgumentError');
    let sql = query;
    if (args !== undefined && args !== null) {
      try {
        sql = substitute(query, Array.from(args));
      } catch (e) {
        this._throw(e.message, undefined, 'ArgumentError');
      }
    }
    const t0 = Date.now();
    let raw;
    try {
      raw = this.execute(sql);
    } catch (e) {
      if (e && (e.type === 'MySQL Error' || e.cause)) throw e;
      this._throw(e.message, e.code);
    }
    let warnings = [];
    if (raw.warningCount) {
      const w = this._bridge.call('sql.query', { id: this._id, sql: 'SHOW WARNINGS' });
      warnings = w.rows.map((r) => new Row(['level', 'code', 'message'], r));
    }
    return new ClassicResult(raw, warnings, Date.now() - t0);
  }

  query(q, args) { return this.runSql(q, args); }
  startTransaction() { return this.runSql('START TRANSACTION'); }
  commit() { return this.runSql('COMMIT'); }
  rollback() { return this.runSql('ROLLBACK'); }
  isOpen() { return this._open; }
  getUri() { return `mysql://${this._uri.replace(/^mysql:\/\//, '')}`; }
  get uri() { return this.getUri(); }
  getConnectionId() { return this._threadId; }
  get connectionId() { return this._threadId; }
  close() {
    if (this._open) { this._bridge.call('sql.close', { id: this._id }); this._open = false; }
  }
  toString() { return `<ClassicSession:${this._uri.replace(/^mysql:\/\//, '').replace(/:[^:@]*@/, '@')}>`; }
}

module.exports = { ClassicSession, ClassicResult, Row };
