'use strict';
// The JSON metadata files of a dump, key for key and in the Shell's key order for the emulated
// version (contract §2, loader-internals §1.3-§1.6, checked against the real dumps in
// ../shared/real-dumps). Values that describe MySQL-only state get the value a server without
// that state reports (no GTIDs: "", no binary log: "" / 0).

function formatVersion(profile) {
  if (profile.atLeast('8.0.27')) return '2.0.1';
  if (profile.atLeast('8.0.23')) return '1.0.2';
  if (profile.atLeast('8.0.22')) return '1.0.1';
  return '1.0.0';
}

const PARTITION_AWARENESS = {
  id: 'partition_awareness',
  description: 'Partition awareness - dumper treats each partition as a separate table, improving both dump and load times.',
  versionRequired: '8.0.27',
};

// ctx: {profile, origin, settings, server, sysvars, schemas: [{name, basename, tables}], users, begin,
//       estimates: {rows, bytes}}
function rootDocument(ctx) {
  const { profile, settings, server } = ctx;
  const v = profile.atLeast;
  const doc = { dumper: `mysqlsh ${profile.longVersion}`, version: formatVersion(profile) };
  if (v('8.0.23')) doc.origin = ctx.origin;
  if (v('8.0.32') && settings.originalOptions && Object.keys(settings.originalOptions).length) {
    doc.options = settings.originalOptions;
  }
  doc.schemas = ctx.schemas.map((s) => s.name);
  doc.basenames = Object.fromEntries(ctx.schemas.map((s) => [s.name, s.basename]));
  if (ctx.users) doc.users = ctx.users;
  doc.defaultCharacterSet = settings.charset;
  doc.tzUtc = settings.tzUtc;
  if (v('8.0.22') && !v('8.0.23')) doc.tableOnly = ctx.origin === 'dumpTables';
  if (v('8.0.22')) doc.bytesPerChunk = settings.bytesPerChunk;
  doc.user = server.user;
  doc.hostname = server.hostname;
  const capabilities = ctx.schemas.some((s) => s.tables.some((t) => t.partitions.length)) ? [PARTITION_AWARENESS] : [];
  const legacy = () => {
    doc.server = server.hostname;
    doc.serverVersion = server.version;
    if (v('8.0.24')) {
      doc.binlogFile = server.binlogFile;
      doc.binlogPosition = server.binlogPosition;
    }
    doc.gtidExecuted = server.gtidExecuted;
  };
  if (!v('9.1.0')) {
    legacy();
    if (v('8.0.23')) doc.gtidExecutedInconsistent = false;
    doc.consistent = settings.consistent;
    if (settings.ocimds) doc.mdsCompatibility = true;
    if (v('8.2.0')) doc.targetVersion = settings.targetVersion;
    if (v('8.0.33')) doc.partialRevokes = server.partialRevokes;
    if (v('8.0.24')) doc.compatibilityOptions = settings.compatibility;
    if (v('8.0.27')) doc.capabilities = capabilities;
    if (v('8.3.0')) doc.checksum = false;
  } else {
    doc.gtidExecutedInconsistent = false;
    doc.consistent = settings.consistent;
    if (settings.ocimds) doc.mdsCompatibility = true;
    doc.targetVersion = settings.targetVersion;
    if (v('9.3.0')) doc.hasLibraryDdl = false;
    doc.source = {
      binlog: { file: server.binlogFile, position: server.binlogPosition, gtidExecuted: server.gtidExecuted },
      sysvars: ctx.sysvars,
      topology: { canonicalAddress: `${server.hostname}:${server.port}` },
    };
    legacy();
    doc.partialRevokes = server.partialRevokes;
    doc.compatibilityOptions = settings.compatibility;
    doc.capabilities = capabilities;
    doc.checksum = false;
    if (v('9.6.0')) {
      doc.estimatedRowCount = ctx.estimates.rows;
      doc.estimatedDataSize = ctx.estimates.bytes;
    }
  }
  doc.begin = ctx.begin;
  return doc;
}

// totals: {tableDataBytes: {s: {t: n}}, tableRows: {s: {t: n}}, chunkFileBytes: {file: n}, dataBytes}
function doneDocument(profile, end, totals) {
  const doc = { end, dataBytes: totals.dataBytes, tableDataBytes: totals.tableDataBytes };
  if (profile.atLeast('8.2.0')) doc.tableRows = totals.tableRows;
  if (profile.atLeast('8.0.22')) doc.chunkFileBytes = totals.chunkFileBytes;
  return doc;
}

// s: {name, tables: [{name, basename}], views: [{name, basename}], events, functions, procedures}
function schemaDocument(profile, settings, s) {
  const v = profile.atLeast;
  const doc = { schema: s.name, includesDdl: settings.ddl };
  if (v('8.0.22')) doc.includesViewsDdl = settings.ddl;
  doc.includesData = settings.data;
  if (v('9.3.0')) doc.multifileDdl = false;
  doc.tables = s.tables.map((t) => t.name);
  if (settings.ddl) {
    doc.views = s.views.map((x) => x.name);
    if (settings.events) doc.events = s.events;
    if (settings.routines) {
      doc.functions = s.functions;
      if (v('9.3.0')) doc.functionDependencies = {};
      doc.procedures = s.procedures;
      if (v('9.3.0')) {
        doc.procedureDependencies = {};
        doc.libraries = [];
      }
    }
  }
  doc.basenames = Object.fromEntries(s.tables.concat(s.views).map((t) => [t.name, t.basename]));
  return doc;
}

// t: {schema, name, columns, decode: {col: fn}, index, triggers, partitions: [{name, basename}], where, chunked}
function tableDocument(profile, settings, t, extension) {
  const v = profile.atLeast;
  const options = { schema: t.schema, table: t.name, columns: t.columns.map((c) => c.name) };
  if (Object.keys(t.decode).length) options.decodeColumns = t.decode;
  if (!v('8.0.27')) options.primaryIndex = t.index ? t.index.columns[0].name : '';
  if (!v('8.0.26')) options.compression = settings.compression;
  Object.assign(options, {
    defaultCharacterSet: settings.charset,
    fieldsTerminatedBy: '\t',
    fieldsEnclosedBy: '',
    fieldsOptionallyEnclosed: false,
    fieldsEscapedBy: '\\',
    linesTerminatedBy: '\n',
  });
  const doc = { options };
  if (settings.ddl && settings.triggers) doc.triggers = t.triggers;
  doc.includesData = settings.data;
  doc.includesDdl = settings.ddl;
  doc.extension = extension;
  doc.chunking = t.chunked;
  if (v('8.0.26')) {
    doc.compression = settings.compression;
    doc.primaryIndex = t.index && t.index.primary ? t.index.columns.map((c) => c.name) : [];
  }
  if (v('8.0.27')) {
    doc.partitions = t.partitions.map((p) => p.name);
    doc.basenames = Object.fromEntries(t.partitions.map((p) => [p.name, p.basename]));
  }
  if (v('8.0.32') && t.where) doc.where = t.where;
  return doc;
}

// The Shell's pretty JSON: 4-space indent, no trailing newline.
function jsonText(doc) { return JSON.stringify(doc, null, 4); }

module.exports = { formatVersion, rootDocument, doneDocument, schemaDocument, tableDocument, jsonText };
