package io.flinkivm.checks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of a source tree uses which other package of the same tree: every {@code io.flinkivm.} name in a
 * file's code counts, an import as much as a fully qualified name in the code, each taken up to its first segment
 * that starts with a capital letter (the class). Comments and string and character literals are left out.
 */
final class PackageGraph {

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.flinkivm(?:\\.[a-z_][a-z0-9_]*)+");

    /** Per package of the tree, the other packages of the tree it uses. */
    private final Map<String, Set<String>> uses;

    private PackageGraph(Map<String, Set<String>> uses) {
        uses.values().forEach(used -> used.retainAll(uses.keySet()));
        this.uses = uses;
    }

    /** The graph of the {@code .java} files under {@code sources}. */
    static PackageGraph of(Path sources) throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                add(uses, Files.readString(f, StandardCharsets.UTF_8), f.toString());
            }
        }
        return new PackageGraph(uses);
    }

    /** The graph of the given compilation units. */
    static PackageGraph ofSources(String... sources) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (String s : sources) {
            add(uses, s, "a source");
        }
        return new PackageGraph(uses);
    }

    private static void add(Map<String, Set<String>> uses, String source, String name) {
        String code = code(source);
        Matcher p = PACKAGE.matcher(code);
        if (!p.find()) {
            throw new IllegalArgumentException("no package declaration in " + name);
        }
        String pkg = p.group(1);
        Set<String> used = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
        Matcher r = REFERENCE.matcher(code);
        r.region(p.end(), code.length());
        while (r.find()) {
            if (!r.group().equals(pkg)) {
                used.add(r.group());
            }
        }
    }

    /** {@code source} with its comments and literals blanked out (text blocks too). */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The packages {@code pkg} uses. */
    Set<String> uses(String pkg) {
        return uses.getOrDefault(pkg, Set.of());
    }

    /** The package cycles: the strongly connected components of two or more packages. */
    List<Set<String>> cycles() {
        return new Tarjan().components();
    }

    /** Tarjan's strongly connected components, visiting packages and their uses in sorted order. */
    private final class Tarjan {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final List<Set<String>> components = new ArrayList<>();

        List<Set<String>> components() {
            for (String p : uses.keySet()) {
                if (!index.containsKey(p)) {
                    visit(p);
                }
            }
            return components;
        }

        private void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.push(p);
            for (String q : uses.get(p)) {
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (stack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                Set<String> component = new TreeSet<>();
                String q;
                do {
                    q = stack.pop();
                    component.add(q);
                } while (!q.equals(p));
                if (component.size() > 1) {
                    components.add(component);
                }
            }
        }
    }
}
