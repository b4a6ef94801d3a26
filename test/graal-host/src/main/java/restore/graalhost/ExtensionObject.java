package restore.graalhost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyObject;
import restore.graalhost.Sh.ShellError;

/**
 * shell.createExtensionObject() objects: mod_extensible_object.cc (Extensible_object::register_member,
 * parse_function_definition, parse_parameter) and call validation in types/cpp.cc call_advanced
 * (argument count, kTypeConvertible, values, dictionary options; no conversion of the values).
 * Messages are the 9.1+ ones (no "Class.method: " prefix), as a 9.2 GraalJS build prints them.
 */
final class ExtensionObject extends Sh.HostObject {
  static final Set<String> FN_KEYS = new TreeSet<>(Arrays.asList("brief", "details", "parameters", "cli"));
  static final Set<String> MEMBER_KEYS = new TreeSet<>(Arrays.asList("brief", "details"));
  static final Set<String> PARAM_KEYS = new TreeSet<>(Arrays.asList("name", "type", "required", "default", "brief",
      "details", "values", "itemtype", "class", "classes", "options"));
  static final List<String> TYPES = Arrays.asList("array", "bool", "dictionary", "float", "integer", "object", "string");

  String name;                 // null until registered
  String qualified;
  boolean registered;
  TreeMap<String, Object> globalDefinition = new TreeMap<>();
  final LinkedHashMap<String, Member> defs = new LinkedHashMap<>();
  ExtensionObject parent;

  static final class Member {
    String name;
    Object value;              // ShellFunction, ExtensionObject or a plain value
    TreeMap<String, Object> def;
    List<TreeMap<String, Object>> params = new ArrayList<>();
  }

  ExtensionObject() {
    members.put("help", new Sh.FunctionProxy(args -> help(args.isEmpty() ? null : (String) args.get(0))));  // returns the text, as the Shell does
  }

  @Override public String className() { return name == null ? "ExtensionObject" : name; }

  @Override public Object getMember(String key) {
    if (!registered && !"help".equals(key)) {
      throw Sh.jsError(new ShellError("RuntimeError", "Unable to access members in an unregistered extension object.", 0));
    }
    Member m = defs.get(key);
    if (m == null) return super.getMember(key);
    if (m.value instanceof Sh.ShellFunction) return new Sh.FunctionProxy(args -> call(m, args));
    if (m.value instanceof ExtensionObject) return m.value;
    return Sh.toJs(m.value);
  }

  @Override public Object getMemberKeys() {
    List<Object> k = new ArrayList<>(members.keySet());
    k.addAll(defs.keySet());
    return ProxyArray.fromList(k);
  }

  @Override public boolean hasMember(String key) { return members.containsKey(key) || defs.containsKey(key); }

  @Override public void putMember(String key, Value value) {
    Member m = defs.get(key);
    if (m == null || m.value instanceof Sh.ShellFunction || m.value instanceof ExtensionObject) {
      throw Sh.jsError(new ShellError("RuntimeError", "Unable to modify member " + key, 0));
    }
    m.value = Sh.toShell(value);
  }

  void register(String globalName) {
    registered = true;
    name = globalName;
    qualified = parent == null ? globalName : parent.qualified + "." + globalName;
    for (Member m : defs.values()) if (m.value instanceof ExtensionObject) ((ExtensionObject) m.value).register(m.name);
  }

  // ------------------------------------------------------------------ definitions
  void addMember(String memberName, Object value, TreeMap<String, Object> def) {
    if (defs.containsKey(memberName) || members.containsKey(memberName)) {
      throw new ShellError("ArgumentError", "The object already has a '" + memberName + "' member.", 0);
    }
    boolean isFn = value instanceof Sh.ShellFunction;
    if (!memberName.matches("[_a-zA-Z][_a-zA-Z0-9]*")) {
      throw new ShellError("ArgumentError", "The " + (isFn ? "function" : "member") + " name '" + memberName
          + "' is not a valid identifier.", 0);
    }
    if (value instanceof ExtensionObject) {
      ExtensionObject child = (ExtensionObject) value;
      if (child == this) throw new ShellError("ArgumentError", "An extension object can not be member of itself.", 0);
      if (child.parent != null || child.registered) {
        throw new ShellError("ArgumentError", "The provided extension object is already registered as part of another extension object.", 0);
      }
      child.parent = this;
    } else if (value instanceof Sh.ShellObject) {
      throw new ShellError("ArgumentError", "Unsupported member type, object members need to be ExtensionObjects.", 0);
    } else if (value == Sh.UNDEFINED || value instanceof byte[]) {
      throw new ShellError("ArgumentError", "Unsupported member type.", 0);
    }
    Member m = new Member();
    m.name = memberName;
    m.value = value;
    m.def = def == null ? new TreeMap<>() : def;
    unknownKeys(m.def, isFn ? FN_KEYS : MEMBER_KEYS, isFn ? "function definition" : "member definition");
    checkType(m.def, "brief", "String");
    if (m.def.containsKey("details")) {
      Object d = m.def.get("details");
      if (!(d instanceof List)) throw new ShellError("TypeError", "Option 'details' is expected to be of type Array, but is " + Sh.typeName(d), 0);
      for (Object x : (List<?>) d) if (!(x instanceof String)) throw new ShellError("TypeError", "Option 'details' String expected, but value is " + Sh.typeName(x), 0);
    }
    if (isFn) {
      checkType(m.def, "parameters", "Array");
      checkType(m.def, "cli", "Bool");
      Object ps = m.def.get("parameters");
      boolean optionalSeen = false;
      Set<String> seen = new TreeSet<>();
      int i = 0;
      String prevOptional = null;
      if (ps instanceof List) for (Object p : (List<?>) ps) {
        i++;
        if (!(p instanceof TreeMap)) throw new ShellError("ArgumentError", "Invalid definition at parameter #" + i, 0);
        TreeMap<String, Object> pd = Sh.castMap(p);
        parseParameter(pd, "parameter #" + i, true);
        String pn = (String) pd.get("name");
        if (!seen.add(pn.toLowerCase())) throw new ShellError("ArgumentError", "parameter '" + pn + "' is already defined.", 0);
        boolean req = !Boolean.FALSE.equals(pd.get("required"));
        if (req && optionalSeen) {
          throw new ShellError("ArgumentError", "parameter '" + pn + "' can not be required after optional parameter '" + prevOptional + "'", 0);
        }
        if (!req) { optionalSeen = true; prevOptional = pn; }
        m.params.add(pd);
      }
    }
    defs.put(memberName, m);
    // a child becomes registered when (or if already) its parent is (register_object)
    if (registered && value instanceof ExtensionObject) ((ExtensionObject) value).register(memberName);
  }

  private static void unknownKeys(Map<String, Object> d, Set<String> allowed, String ctx) {
    List<String> bad = new ArrayList<>();
    for (String k : d.keySet()) if (!allowed.contains(k)) bad.add(k);
    if (!bad.isEmpty()) throw new ShellError("ArgumentError", "Invalid options at " + ctx + ": " + String.join(", ", bad), 0);
  }

  private static void checkType(Map<String, Object> d, String key, String type) {
    if (!d.containsKey(key)) return;
    String t = Sh.typeName(d.get(key));
    if (!t.equals(type)) throw new ShellError("TypeError", "Option '" + key + "' is expected to be of type " + type + ", but is " + t, 0);
  }

  private static void parseParameter(TreeMap<String, Object> pd, String ctx, boolean isParam) {
    unknownKeys(pd, PARAM_KEYS, ctx);
    if (!pd.containsKey("name")) throw new ShellError("ArgumentError", "Missing required options at " + ctx + ": name", 0);
    Object n = pd.get("name");
    if (!(n instanceof String) || !((String) n).matches("[_a-zA-Z][_a-zA-Z0-9]*")) {
      throw new ShellError("ArgumentError", ctx + " is not a valid identifier: '" + n + "'.", 0);
    }
    if (pd.containsKey("type") && !TYPES.contains(String.valueOf(pd.get("type")))) {
      throw new ShellError("ArgumentError", "Unsupported type used at parameter '" + n + "'. Allowed types: " + String.join(", ", TYPES), 0);
    }
    if (pd.containsKey("required") && !(pd.get("required") instanceof Boolean)) {
      throw new ShellError("TypeError", "Option 'required' Bool expected, but value is " + Sh.typeName(pd.get("required")), 0);
    }
    Object opts = pd.get("options");
    if (opts instanceof List) {
      int i = 0;
      for (Object o : (List<?>) opts) {
        i++;
        if (!(o instanceof TreeMap)) throw new ShellError("ArgumentError", "Invalid definition at parameter '" + n + "', option #" + i, 0);
        parseParameter(Sh.castMap(o), "parameter '" + n + "', option #" + i, false);
      }
    }
  }

  // ------------------------------------------------------------------ calls
  Object call(Member m, List<Object> args) {
    if (!registered) throw new ShellError("RuntimeError", "Unable to call functions in an unregistered extension object.", 0);
    int max = m.params.size(), min = 0;
    for (TreeMap<String, Object> p : m.params) if (!Boolean.FALSE.equals(p.get("required"))) min++;
    if (args.size() < min || args.size() > max) {
      throw new ShellError("ArgumentError", "Invalid number of arguments, expected " + (min == max ? "" + min : min + " to " + max)
          + " but got " + args.size(), 0);
    }
    List<Object> call = new ArrayList<>(args);
    for (int i = args.size(); i < max; i++) {
      TreeMap<String, Object> p = m.params.get(i);
      call.add(p.containsKey("default") ? p.get("default") : Sh.UNDEFINED);
    }
    for (int i = 0; i < args.size(); i++) validate(m.params.get(i), args.get(i), "Argument #" + (i + 1));
    return ((Sh.ShellFunction) m.value).invoke(call);
  }

  static void validate(TreeMap<String, Object> p, Object v, String ctx) {
    String type = (String) p.get("type");
    if (type == null || v == Sh.UNDEFINED) return;
    boolean ok;
    switch (type) {
      case "string": ok = v instanceof String || v instanceof byte[]; break;
      case "integer": case "float": case "bool":
        ok = v instanceof Long || v instanceof Double || v instanceof Boolean
            || (v instanceof String && convertible((String) v, type)); break;
      case "array": ok = v == null || v instanceof List; break;
      case "dictionary": ok = v == null || v instanceof Map; break;
      case "object": ok = v == null || v instanceof Sh.ShellObject; break;
      default: ok = true;
    }
    if (!ok) {
      String what = Map.of("string", "a string", "integer", "an integer", "float", "a float", "bool", "a bool",
          "array", "an array", "dictionary", "a map", "object", "an object").get(type);
      throw new ShellError("TypeError", ctx + " is expected to be " + what, 0);
    }
    Object values = p.get("values");
    if (values instanceof List && v instanceof String && !((List<?>) values).contains(v)) {
      List<String> vs = new ArrayList<>();
      for (Object o : (List<?>) values) vs.add(String.valueOf(o));
      throw new ShellError("ArgumentError", ctx + " only accepts the following values: " + String.join(", ", vs) + ".", 0);
    }
    Object opts = p.get("options");
    if ("dictionary".equals(type) && v instanceof Map && opts instanceof List && !((List<?>) opts).isEmpty()) {
      Map<String, Object> given = Sh.castMap(v);
      Map<String, TreeMap<String, Object>> known = new TreeMap<>();
      for (Object o : (List<?>) opts) known.put((String) Sh.castMap(o).get("name"), Sh.castMap(o));
      for (Map.Entry<String, Object> e : given.entrySet()) {
        if (known.containsKey(e.getKey())) validate(known.get(e.getKey()), e.getValue(), ctx + ", option '" + e.getKey() + "'");
      }
      List<String> invalid = new ArrayList<>(), missing = new ArrayList<>();
      for (String k : given.keySet()) if (!known.containsKey(k)) invalid.add(k);
      for (TreeMap<String, Object> o : known.values()) {
        if (Boolean.TRUE.equals(o.get("required")) && !given.containsKey(o.get("name"))) missing.add((String) o.get("name"));
      }
      if (!invalid.isEmpty() && !missing.isEmpty()) {
        throw new ShellError("ArgumentError", "Invalid and missing options at " + ctx + " (invalid: " + String.join(", ", invalid)
            + "), (missing: " + String.join(", ", missing) + ")", 0);
      }
      if (!invalid.isEmpty()) throw new ShellError("ArgumentError", "Invalid options at " + ctx + ": " + String.join(", ", invalid), 0);
      if (!missing.isEmpty()) throw new ShellError("ArgumentError", "Missing required options at " + ctx + ": " + String.join(", ", missing), 0);
    }
  }

  private static boolean convertible(String s, String type) {
    try {
      switch (type) {
        case "integer": Long.parseLong(s.trim()); return true;
        case "float": Double.parseDouble(s.trim()); return true;
        default: return s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false") || s.equals("1") || s.equals("0");
      }
    } catch (NumberFormatException e) {
      return false;
    }
  }

  // ------------------------------------------------------------------ help (mod_extensible_object.cc register_help, simplified)
  String help(String member) {
    StringBuilder sb = new StringBuilder();
    if (member == null) {
      sb.append("NAME\n      ").append(qualified).append(" - ").append(globalDefinition.getOrDefault("brief", "")).append("\n");
      Object det = globalDefinition.get("details");
      if (det instanceof List && !((List<?>) det).isEmpty()) {
        sb.append("\nDESCRIPTION\n");
        for (Object d : (List<?>) det) sb.append(wrap(String.valueOf(d), "      ")).append("\n");
      }
      List<String> props = new ArrayList<>(), fns = new ArrayList<>();
      fns.add("help([member])");
      TreeMap<String, String> briefs = new TreeMap<>();
      briefs.put("help([member])", "Provides help about this object and it's members");
      for (Member m : defs.values()) {
        String brief = String.valueOf(m.def.getOrDefault("brief", ""));
        if (m.value instanceof Sh.ShellFunction) { String sig = signature(m); fns.add(sig); briefs.put(sig, brief); }
        else { props.add(m.name); briefs.put(m.name, brief); }
      }
      if (!props.isEmpty()) {
        sb.append("\nPROPERTIES\n");
        for (String p : new TreeSet<>(props)) sb.append("      ").append(p).append("\n").append(wrap(briefs.get(p), "            ")).append("\n\n");
      }
      sb.append("\nFUNCTIONS\n");
      for (String f : new TreeSet<>(fns)) sb.append("      ").append(f).append("\n").append(wrap(briefs.get(f), "            ")).append("\n\n");
      return sb.toString().replaceAll("\\n+$", "");
    }
    Member m = defs.get(member);
    if (m == null) return "";
    sb.append("NAME\n      ").append(member).append(" - ").append(m.def.getOrDefault("brief", "")).append("\n\nSYNTAX\n      ")
        .append(qualified).append('.').append(signature(m)).append("\n");
    if (!m.params.isEmpty()) {
      sb.append("\nWHERE\n");
      for (TreeMap<String, Object> p : m.params) {
        String t = String.valueOf(p.getOrDefault("type", "Any"));
        t = Map.of("string", "String", "integer", "Integer", "float", "Float", "bool", "Bool", "array", "Array",
            "dictionary", "Dictionary", "object", "Object").getOrDefault(t, t);
        String b = String.valueOf(p.getOrDefault("brief", ""));
        if (!b.isEmpty() && !b.endsWith(".")) b += ".";
        sb.append(wrap(p.get("name") + ": " + t + " - " + b, "      ")).append("\n");
      }
    }
    Object det = m.def.get("details");
    if (det instanceof List && !((List<?>) det).isEmpty()) {
      sb.append("\nDESCRIPTION\n");
      for (Object d : (List<?>) det) sb.append(wrap(String.valueOf(d), "      ")).append("\n\n");
    }
    return sb.toString().replaceAll("\\n+$", "");
  }

  private static String signature(Member m) {
    StringBuilder sb = new StringBuilder(m.name).append('(');
    int opt = 0;
    for (int i = 0; i < m.params.size(); i++) {
      TreeMap<String, Object> p = m.params.get(i);
      boolean req = !Boolean.FALSE.equals(p.get("required"));
      if (!req) { sb.append('['); opt++; }
      if (i > 0) sb.append(", ");
      sb.append(p.get("name"));
    }
    sb.append("]".repeat(opt)).append(')');
    return sb.toString();
  }

  private static String wrap(String text, String indent) {
    StringBuilder out = new StringBuilder(), line = new StringBuilder(indent);
    for (String w : text.split(" ")) {
      if (line.length() > indent.length() && line.length() + 1 + w.length() > 80) {
        out.append(line).append('\n');
        line = new StringBuilder(indent);
      }
      if (line.length() > indent.length()) line.append(' ');
      line.append(w);
    }
    return out.append(line).toString();
  }
}
