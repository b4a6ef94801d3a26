'use strict';
// Which index orders and splits a table's data (loader-internals §4): the primary key unless one
// of its columns is an ENUM; else the best unique index on NOT NULL columns (fewest columns, then
// a leading integer column); else a unique index with nullable columns; else none.

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint']);

function isIntegerColumn(column) { return INTEGER_TYPES.has(column.dataType); }

// Returns {name, columns: [column], primary, nullable, integer} or null.
function chooseIndex(columns, indexes) {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const usable = indexes
    .filter((ix) => ix.unique && !ix.prefix && ix.columns.every((c) => byName.has(c) && !byName.get(c).generated))
    .map((ix) => {
      const cols = ix.columns.map((c) => byName.get(c));
      return {
        name: ix.name,
        columns: cols,
        primary: ix.name === 'PRIMARY',
        nullable: cols.some((c) => c.nullable),
        integer: isIntegerColumn(cols[0]),
      };
    });
  const pk = usable.find((ix) => ix.primary);
  if (pk && !pk.columns.some((c) => c.dataType === 'enum')) return pk;
  const rank = (a, b) => (a.columns.length - b.columns.length) || (Number(b.integer) - Number(a.integer))
    || a.name.localeCompare(b.name);
  const notNull = usable.filter((ix) => !ix.primary && !ix.nullable).sort(rank);
  if (notNull.length) return notNull[0];
  const nullable = usable.filter((ix) => !ix.primary && ix.nullable).sort(rank);
  return nullable.length ? nullable[0] : null;
}

module.exports = { chooseIndex, isIntegerColumn };
