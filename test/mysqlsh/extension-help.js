'use strict';
// The `\? restore` / restore.help() text, laid out like mysqlsh's generated help (§3.5).
const TYPE_NAME = { string: 'String', integer: 'Integer', float: 'Float', bool: 'Bool', array: 'Array',
  dictionary: 'Dictionary', object: 'Object' };
const INDENT = '      ';

function wrap(text, indent, width = 80) {
  const words = String(text).split(/\s+/).filter(Boolean);
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + line.length + 1 + w.length > width) { lines.push(indent + line); line = w; } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(indent + line);
  return lines;
}

function signature(name, params) {
  let s = '';
  params.forEach((p, i) => {
    const sep = i ? ', ' : '';
    s += p.required ? `${sep}${p.name}` : `[${sep}${p.name}`;
  });
  const closing = params.filter((p) => !p.required).length;
  return `${name}(${s}${']'.repeat(closing)})`;
}

function dot(s) { return s && !/[.!?]$/.test(s) ? `${s}.` : s; }

function renderObjectHelp(state) {
  const out = ['NAME', ...wrap(`${state.name} - ${state.brief || ''}`, INDENT), ''];
  if (state.details && state.details.length) {
    out.push('DESCRIPTION');
    state.details.forEach((d, i) => { if (i) out.push(''); out.push(...wrap(d, INDENT)); });
    out.push('');
  }
  const props = [...state.members].filter(([, m]) => m.kind !== 'function');
  if (props.length) {
    out.push('PROPERTIES');
    props.sort(([a], [b]) => a.localeCompare(b)).forEach(([n, m]) => { out.push(`${INDENT}${n}`); out.push(...wrap(m.def.brief, INDENT + INDENT)); out.push(''); });
  }
  out.push('FUNCTIONS');
  const fns = [['help', { def: { parameters: [{ name: 'member', required: false }], brief: "Provides help about this object and it's members" } }],
    ...[...state.members].filter(([, m]) => m.kind === 'function')];
  fns.sort(([a], [b]) => a.localeCompare(b)).forEach(([n, m]) => {
    out.push(`${INDENT}${signature(n, m.def.parameters)}`);
    out.push(...wrap(m.def.brief, INDENT + INDENT));
    out.push('');
  });
  return out.join('\n');
}

function optionLines(opts, indent) {
  const out = [];
  opts.forEach((o) => {
    out.push(...wrap(`- ${o.name}: ${TYPE_NAME[o.type] || 'Any'}${o.required ? ' (required)' : ''} - ${dot(o.brief)}`, indent));
    (o.details || []).forEach((d) => out.push(...wrap(d, `${indent}  `)));
  });
  return out;
}

function renderMemberHelp(state, name, profile) {
  const m = state.members.get(name);
  if (!m || m.kind !== 'function') return `No help found for member ${name}`;
  const def = m.def;
  const out = ['NAME', ...wrap(`${name} - ${def.brief}`, INDENT), '', 'SYNTAX', `${INDENT}${state.name}.${signature(name, def.parameters)}`, ''];
  if (def.parameters.length) {
    out.push('WHERE');
    def.parameters.forEach((p) => out.push(...wrap(`${p.name}: ${TYPE_NAME[p.type] || 'Any'} - ${dot(p.brief)}`, INDENT)));
    out.push('');
  }
  const desc = [];
  def.details.filter((d) => d !== '@PARAMDETAILS').forEach((d) => desc.push(...wrap(d, INDENT), ''));
  def.parameters.forEach((p) => {
    p.details.forEach((d) => desc.push(...wrap(d, INDENT), ''));
    if (p.values) desc.push(...wrap(`The ${p.name} parameter accepts the following values: ${p.values.join(', ')}.`, INDENT), '');
    if (p.options && p.options.length) {
      desc.push(...wrap(`The ${p.name} parameter accepts the following options:`, INDENT), '');
      desc.push(...optionLines(p.options, INDENT), '');
    }
  });
  if (desc.length) out.push('DESCRIPTION', ...desc);
  return out.join('\n').replace(/\n+$/, '');
}

module.exports = { renderObjectHelp, renderMemberHelp, signature };
