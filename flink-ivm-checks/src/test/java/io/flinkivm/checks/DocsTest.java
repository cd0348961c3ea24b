package io.flinkivm.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.examples.cli.Main;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README and the pages under docs/ stay honest: the README is a front door (at most {@value #README_LINES}
 * lines), every relative link reaches a file and, for a page, a heading of it, and every command they show names a
 * jar that the build makes and a command, and options, that the jar's command line has. Surefire runs in this
 * module's directory: the repository is its parent.
 */
class DocsTest {

    static final int README_LINES = 300;

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    /** {@code java [-D...] -jar JAR COMMAND}, the command on the same line or, in prose, on the next one. */
    private static final Pattern JAVA_JAR =
            Pattern.compile("java(?:\\s+-\\S+)*?\\s+-jar\\s+(\\S+\\.jar)\\b[ \\t]*\\n?[ \\t]*(\\S*)");

    private static final Pattern CLASS_ON_CLUSTER = Pattern.compile("-c\\s+(\\S+)\\s+(\\S+-cluster\\.jar)\\s+(\\S+)");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");

    /** The jars the docs may run with {@code java -jar}, by their path from the repository's root. */
    private static final Map<String, CommandLine> JARS = Map.of(
            "flink-ivm-examples/target/flink-ivm-examples.jar", Main.commandLine(),
            "flink-ivm-bench/target/flink-ivm-bench.jar", BenchMain.commandLine());

    private static Map<Path, String> pages;

    @BeforeAll
    static void read() throws IOException {
        pages = new HashMap<>();
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        for (Path f : files) {
            pages.put(f, Files.readString(f, StandardCharsets.UTF_8));
        }
        assertThat(pages).containsKeys(ROOT.resolve("docs/README.md"), ROOT.resolve("docs/benchmarks.md"));
    }

    @Test
    void theReadmeIsAFrontDoor() {
        String readme = pages.get(ROOT.resolve("README.md"));

        assertThat(readme.lines().count()).as("lines of README.md").isLessThanOrEqualTo(README_LINES);
        assertThat(readme)
                .contains(
                        "## Set-up: the two commands",
                        "mvn -B -q package -DskipTests && java -jar flink-ivm-examples/target/flink-ivm-examples.jar",
                        "\nmvn -B verify\n",
                        "## Quick start in Java",
                        "## Quick start in SQL",
                        "## From Flink SQL",
                        "(docs/benchmarks.md)");
    }

    @Test
    void everyRelativeLinkReachesAFileAndAHeading() {
        List<String> broken = new ArrayList<>();
        pages.forEach((page, text) -> {
            Matcher m = LINK.matcher(prose(text));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved =
                        file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0) {
                    String anchor = target.substring(hash + 1);
                    if (!pages.containsKey(resolved)
                            || !anchors(pages.get(resolved)).contains(anchor)) {
                        broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                    }
                }
            }
        });
        assertThat(broken).isEmpty();
    }

    @Test
    void everyJavaJarCommandIsACommandOfThatJar() {
        List<String> wrong = new ArrayList<>();
        int seen = 0;
        for (Map.Entry<Path, String> e : pages.entrySet()) {
            Matcher m = JAVA_JAR.matcher(e.getValue());
            while (m.find()) {
                seen++;
                String where = ROOT.relativize(e.getKey()) + ": " + m.group().replaceAll("\\s+", " ");
                CommandLine cl = JARS.get(m.group(1));
                String command = m.group(2).replaceAll("[`\\\\]", "").replaceAll("[.,;:)]+$", "");
                if (cl == null) {
                    wrong.add(where + " (no such jar; the build makes " + JARS.keySet() + ")");
                } else if (!command.isEmpty()
                        && !command.startsWith("-")
                        && !command.equals(command.toUpperCase(Locale.ROOT))
                        && !cl.getSubcommands().containsKey(command)) {
                    wrong.add(where + " (no command '" + command + "'; it has "
                            + cl.getSubcommands().keySet() + ")");
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(seen).as("java -jar commands in the docs").isGreaterThan(20);
    }

    /** In code blocks: {@code java -jar JAR COMMAND} and {@code flink run -c CLASS JAR COMMAND} lines, options too. */
    @Test
    void theCommandsOfCodeBlocksTakeTheOptionsTheyShow() {
        List<String> wrong = new ArrayList<>();
        int seen = 0;
        for (Map.Entry<Path, String> e : pages.entrySet()) {
            for (String line : codeLines(e.getValue())) {
                String where = ROOT.relativize(e.getKey()) + ": " + line;
                String plain = QUOTED.matcher(line).replaceAll("Q");
                CommandLine cl;
                String rest;
                Matcher jar = JAVA_JAR.matcher(plain);
                Matcher cluster = CLASS_ON_CLUSTER.matcher(plain);
                if (jar.find()) {
                    cl = JARS.get(jar.group(1));
                    rest = plain.substring(jar.start(2));
                } else if (cluster.find()) {
                    if (!cluster.group(1).equals(Main.class.getName())) {
                        wrong.add(where + " (the cluster jar's main class is " + Main.class.getName() + ")");
                        continue;
                    }
                    cl = Main.commandLine();
                    rest = plain.substring(cluster.start(3));
                } else {
                    continue;
                }
                seen++;
                if (cl == null) {
                    continue; // everyJavaJarCommandIsACommandOfThatJar reports it
                }
                String command = rest.split("\\s+")[0];
                CommandLine sub = cl.getSubcommands().get(command);
                if (sub == null) {
                    if (!command.startsWith("-") && !command.isEmpty()) {
                        wrong.add(where + " (no command '" + command + "')");
                    }
                    continue;
                }
                Matcher o = OPTION.matcher(rest);
                while (o.find()) {
                    if (sub.getCommandSpec().findOption(o.group()) == null) {
                        wrong.add(where + " (" + command + " has no option " + o.group() + ")");
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(seen).as("commands in code blocks").isGreaterThan(20);
    }

    /** GitHub's anchors of a page's headings: lower case, spaces as '-', other punctuation dropped. */
    static Set<String> anchors(String page) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(page).lines().toList()) {
            if (line.startsWith("#")) {
                String slug = line.replaceFirst("^#+\\s*", "")
                        .trim()
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum);
                out.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return out;
    }

    /** The page without its fenced code blocks (their lines blank). */
    static String prose(String page) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (String line : page.lines().toList()) {
            if (line.startsWith("```")) {
                code = !code;
                out.append('\n');
                continue;
            }
            out.append(code ? "" : line).append('\n');
        }
        return out.toString();
    }

    /** The lines of a page's fenced code blocks, those continued with a backslash joined, comments left out. */
    static List<String> codeLines(String page) {
        List<String> out = new ArrayList<>();
        boolean code = false;
        StringBuilder logical = new StringBuilder();
        for (String line : page.lines().toList()) {
            if (line.startsWith("```")) {
                code = !code;
                continue;
            }
            if (!code || line.stripLeading().startsWith("#")) {
                continue;
            }
            String text = line.replaceFirst("\\s+#\\s.*$", "");
            if (text.endsWith("\\")) {
                logical.append(text, 0, text.length() - 1).append(' ');
            } else {
                out.add(logical.append(text).toString().trim());
                logical.setLength(0);
            }
        }
        return out;
    }

    /** A number of a figures table: not part of a name (Q3), with its thousands separators and decimals. */
    private static final Pattern FIGURE = Pattern.compile("(?<![\\w.,^])\\d[\\d,]*(?:\\.\\d+)?(?![\\d^])");

    /** The README's figures table is taken from docs/benchmarks.md: each of its numbers is on that page. */
    @Test
    void everyFigureOfTheReadmeIsOnTheBenchmarksPage() {
        String readme = pages.get(ROOT.resolve("README.md"));
        String benchmarks = pages.get(ROOT.resolve("docs/benchmarks.md"));
        int start = readme.indexOf("\n## Figures\n");
        assertThat(start).as("the README's section ## Figures").isPositive();
        int end = readme.indexOf("\n## ", start + 1);
        List<String> missing = new ArrayList<>();
        int seen = 0;
        for (String line : readme.substring(start, end).lines().toList()) {
            if (!line.startsWith("| ") || line.startsWith("| ---") || line.startsWith("| workload |")) {
                continue;
            }
            Matcher m = FIGURE.matcher(line.replaceAll("`[^`]*`", ""));
            while (m.find()) {
                seen++;
                String figure = m.group().replaceAll(",$", "");
                if (!Pattern.compile("(?<![\\d.,])" + Pattern.quote(figure) + "(?![\\d]|[.,]\\d)")
                        .matcher(benchmarks)
                        .find()) {
                    missing.add(figure + " (" + line + ")");
                }
            }
        }
        assertThat(seen).as("figures in the README's table").isGreaterThan(20);
        assertThat(missing).as("README figures not in docs/benchmarks.md").isEmpty();
    }

    /** docs/benchmarks.md documents every option of the bench jar's commands (but the common --log-level). */
    @Test
    void theBenchmarksPageNamesEveryOptionOfTheBenchCommands() {
        String benchmarks = pages.get(ROOT.resolve("docs/benchmarks.md"));
        CommandLine cl = BenchMain.commandLine();
        List<String> missing = new ArrayList<>();
        for (String command : cl.getSubcommands().keySet()) {
            for (CommandLine.Model.OptionSpec o :
                    cl.getSubcommands().get(command).getCommandSpec().options()) {
                String name = o.longestName();
                if (o.usageHelp() || o.versionHelp() || name.equals("--log-level")) {
                    continue;
                }
                if (!Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])")
                        .matcher(benchmarks)
                        .find()) {
                    missing.add(command + " " + name);
                }
            }
        }
        assertThat(cl.getSubcommands()).containsKeys("bench", "bench-table", "soak", "soak-plot");
        assertThat(missing).as("options not named in docs/benchmarks.md").isEmpty();
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(anchors("# Output: snapshots, changelog\n## Options (`IvmOptions`)\n## A\n## A\n"))
                .containsExactly("output-snapshots-changelog", "options-ivmoptions", "a", "a-1");
        assertThat(anchors("## The measurements: flink-ivm-bench.jar"))
                .containsExactly("the-measurements-flink-ivm-benchjar");
    }
}
