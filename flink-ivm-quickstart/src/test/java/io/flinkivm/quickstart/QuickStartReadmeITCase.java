package io.flinkivm.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The README's "Quick start in Java" as a new user meets it: the dependency block is this module's
 * dependencies, and the Java blocks, taken from the README at test time (imports, then the body of
 * {@code main}), compile against exactly their runtime classpath, run in a new JVM and print the lines the
 * README shows. Edit the README and this test reads the edit; break the API and the README's code fails here.
 */
class QuickStartReadmeITCase {

    private static String readme;

    @TempDir
    Path dir;

    @BeforeAll
    static void read() throws IOException {
        readme = Files.readString(Path.of(System.getProperty("flinkivm.readme")), StandardCharsets.UTF_8);
    }

    /** groupId:artifactId:version:scope of the README's block and of this module's pom are the same. */
    @Test
    void theReadmesDependenciesAreThisModulesDependencies() throws Exception {
        List<String> readmeDependencies = dependencies(xml("<project>" + block("dependencies") + "</project>"), true);
        List<String> pomDependencies =
                dependencies(xml(Files.readString(Path.of(System.getProperty("flinkivm.pom")))), false);

        assertThat(readmeDependencies)
                .containsExactlyElementsOf(pomDependencies)
                .contains(
                        "io.flinkivm:flink-ivm-operators:" + System.getProperty("flinkivm.version") + ":compile",
                        "org.apache.flink:flink-streaming-java:" + System.getProperty("flinkivm.flinkVersion")
                                + ":compile",
                        "org.apache.flink:flink-clients:" + System.getProperty("flinkivm.flinkVersion") + ":compile",
                        "org.apache.logging.log4j:log4j-slf4j-impl:" + System.getProperty("flinkivm.log4jVersion")
                                + ":runtime");
        List<String> classpath = classpath();
        assertThat(classpath)
                .anyMatch(e -> e.contains("flink-ivm-operators"))
                .anyMatch(
                        e -> e.endsWith("flink-streaming-java-" + System.getProperty("flinkivm.flinkVersion") + ".jar"))
                .anyMatch(e -> e.endsWith("flink-clients-" + System.getProperty("flinkivm.flinkVersion") + ".jar"))
                .noneMatch(
                        e -> e.contains("junit") || e.contains("assertj") || e.contains("flink-statebackend-rocksdb"));
    }

    /**
     * A DataStream user's classpath (flink-ivm-operators and Flink) has no SQL front end: no flink-ivm-sql, no
     * Calcite or avatica artifact, no Table API, and no Calcite class in any of its jars or directories.
     */
    @Test
    void theDataStreamApiBringsNoCalciteNorTheSqlModule() throws Exception {
        List<String> classpath = classpath();

        assertThat(classpath)
                .isNotEmpty()
                .noneMatch(e -> e.contains("flink-ivm-sql"))
                .noneMatch(e -> e.replace(File.separatorChar, '/').contains("/org/apache/calcite/"))
                .noneMatch(e -> e.contains("flink-table-"));
        List<String> calcite = new ArrayList<>();
        for (String entry : classpath) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                if (Files.exists(path.resolve("org/apache/calcite"))) {
                    calcite.add(entry);
                }
            } else if (entry.endsWith(".jar")) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    if (jar.stream().anyMatch(e -> e.getName().startsWith("org/apache/calcite/"))) {
                        calcite.add(entry);
                    }
                }
            }
        }
        assertThat(calcite).as("classpath entries with Calcite classes").isEmpty();
    }

    @Test
    void theQuickStartCompilesRunsAndPrintsWhatTheReadmeShows() throws Exception {
        String source = block("imports") + "\npublic class QuickStart {\n"
                + "    public static void main(String[] args) throws Exception {\n" + block("main") + "    }\n}\n";
        Path src = Files.writeString(dir.resolve("QuickStart.java"), source);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String classpath = String.join(File.pathSeparator, classpath());

        compile(src, classes, classpath);
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classes + File.pathSeparator + classpath,
                        "QuickStart")
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the quick start did not finish within 3 minutes");
        }
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);

        assertThat(p.exitValue()).as("exit code; stderr:%n%s", stderr).isZero();
        assertPrintsInOrder(stdout, block("output"));
        assertThat(stderr).as("stderr").doesNotContain("SLF4J");
    }

    /** Every line of {@code expected} in {@code actual}, in order; consecutive unless "..." stands between them. */
    private static void assertPrintsInOrder(String actual, String expected) {
        List<String> lines = actual.lines().toList();
        int at = -1;
        boolean gap = true;
        for (String line : expected.lines().toList()) {
            if (line.equals("...")) {
                gap = true;
                continue;
            }
            int found = -1;
            if (gap) {
                for (int i = at + 1; i < lines.size() && found < 0; i++) {
                    if (lines.get(i).equals(line)) {
                        found = i;
                    }
                }
            } else if (at + 1 < lines.size() && lines.get(at + 1).equals(line)) {
                found = at + 1;
            }
            assertThat(found)
                    .as(
                            "README line '%s' %s in the quick start's output:%n%s",
                            line, gap ? "after line " + (at + 1) : "right after line " + (at + 1), actual)
                    .isNotNegative();
            at = found;
            gap = false;
        }
    }

    private static void compile(Path source, Path classes, String classpath) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source.toFile());
            boolean ok = javac.getTask(
                            diagnostics,
                            files,
                            null,
                            List.of("--release", "17", "-proc:none", "-classpath", classpath, "-d", classes.toString()),
                            null,
                            units)
                    .call();
            assertThat(ok)
                    .as("the README's quick start compiles:%n%s%n%s", diagnostics, Files.readString(source))
                    .isTrue();
        }
    }

    /** The runtime classpath of this module's dependencies, as the dependency plugin wrote it. */
    private static List<String> classpath() throws IOException {
        String text = Files.readString(Path.of(System.getProperty("flinkivm.quickstartClasspath")))
                .trim();
        return List.of(text.split(File.pathSeparator));
    }

    /** The fenced block right after the README's {@code <!-- quick-start:NAME} comment. */
    private static String block(String name) {
        int marker = readme.indexOf("<!-- quick-start:" + name);
        assertThat(marker).as("README has a block marked quick-start:" + name).isNotNegative();
        int fence = readme.indexOf("```", readme.indexOf("-->", marker));
        int start = readme.indexOf('\n', fence) + 1;
        int end = readme.indexOf("\n```", start);
        return readme.substring(start, end + 1);
    }

    private static Document xml(String text) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The project's dependencies (not those of plugins or dependencyManagement) as groupId:artifactId:version:scope,
     * test scope left out. Versions are the README's literals, or (in the pom, where the parent manages them) the
     * versions the build passes in.
     */
    private static List<String> dependencies(Document doc, boolean literalVersions) {
        List<String> out = new ArrayList<>();
        NodeList all = doc.getElementsByTagName("dependency");
        for (int i = 0; i < all.getLength(); i++) {
            Element d = (Element) all.item(i);
            Node parent = d.getParentNode();
            if (!"dependencies".equals(parent.getNodeName())
                    || !"project".equals(parent.getParentNode().getNodeName())) {
                continue;
            }
            String group = text(d, "groupId");
            String scope = text(d, "scope");
            if ("test".equals(scope)) {
                continue;
            }
            String version = literalVersions ? text(d, "version") : managedVersion(group);
            out.add(group + ":" + text(d, "artifactId") + ":" + version + ":" + (scope == null ? "compile" : scope));
        }
        return out;
    }

    private static String managedVersion(String group) {
        return switch (group) {
            case "io.flinkivm" -> System.getProperty("flinkivm.version");
            case "org.apache.flink" -> System.getProperty("flinkivm.flinkVersion");
            case "org.apache.logging.log4j" -> System.getProperty("flinkivm.log4jVersion");
            default -> throw new AssertionError("the quick start's pom names " + group + ": add its version here");
        };
    }

    private static String text(Element e, String child) {
        NodeList n = e.getElementsByTagName(child);
        return n.getLength() == 0 ? null : n.item(0).getTextContent().trim();
    }
}
