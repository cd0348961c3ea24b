package io.flinkivm.bench.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The jars a local cluster runs Flink from. The build writes every jar Maven resolved for flink-ivm-bench
 * to {@code target/local-cluster-classpath.txt}; the cluster takes those that the pom's shade execution
 * {@value #CLUSTER_EXECUTION} leaves out of the cluster jar. That execution names what a Flink distribution's
 * {@code lib/} provides (Flink itself, the web UI, the file connector, Log4j), so the cluster jar and the cluster
 * it is tested on cannot drift apart: whatever the cluster jar leaves out, the cluster has.
 */
public final class ClusterClasspath {

    /** The id of the shade execution in flink-ivm-examples/pom.xml that builds the cluster jar. */
    public static final String CLUSTER_EXECUTION = "cluster";

    private ClusterClasspath() {}

    /**
     * A {@code groupId:artifactId} pattern of the cluster execution's {@code artifactSet} excludes ({@code *} in
     * the artifact id matches any text).
     */
    public record Artifact(String groupId, Pattern artifactId) {

        static Artifact parse(String coordinates) {
            int colon = coordinates.indexOf(':');
            if (colon <= 0 || colon == coordinates.length() - 1) {
                throw new IllegalArgumentException("expected groupId:artifactId, got '" + coordinates + "'");
            }
            String glob = coordinates.substring(colon + 1);
            return new Artifact(
                    coordinates.substring(0, colon),
                    Pattern.compile(Pattern.quote(glob).replace("*", "\\E.*\\Q")));
        }

        /**
         * Whether {@code jar}, a file in a Maven repository ({@code <group path>/<artifactId>/<version>/<file>}),
         * is of this artifact.
         */
        public boolean matches(Path jar) {
            Path version = jar.toAbsolutePath().normalize().getParent();
            Path artifact = version == null ? null : version.getParent();
            Path group = artifact == null ? null : artifact.getParent();
            return group != null
                    && artifactId.matcher(artifact.getFileName().toString()).matches()
                    && group.endsWith(Path.of(groupId.replace('.', File.separatorChar)));
        }
    }

    /**
     * The cluster's jars: the entries of {@code classpathFile} (one line, separated by the path separator, as
     * Maven's {@code dependency:build-classpath} writes it) that the cluster execution of {@code pom} excludes
     * from the cluster jar, in the file's order.
     *
     * @throws IOException if a file cannot be read, or the classpath lacks Flink's runtime (build first)
     */
    public static List<Path> of(Path classpathFile, Path pom) throws IOException {
        if (!Files.isRegularFile(classpathFile)) {
            throw new IOException("no " + classpathFile + ": build first ('mvn -B -q package -DskipTests' writes it)");
        }
        List<Artifact> provided = providedByTheCluster(pom);
        List<Path> out = new ArrayList<>();
        for (String entry :
                Files.readString(classpathFile, StandardCharsets.UTF_8).trim().split(File.pathSeparator)) {
            Path jar = Path.of(entry.trim());
            if (entry.isBlank() || !jar.getFileName().toString().endsWith(".jar")) {
                continue;
            }
            if (provided.stream().anyMatch(a -> a.matches(jar))) {
                out.add(jar);
            }
        }
        if (out.stream().noneMatch(j -> j.getFileName().toString().startsWith("flink-runtime-"))) {
            throw new IOException("the classpath in " + classpathFile + " has no flink-runtime jar; build again");
        }
        return out;
    }

    /** The artifacts the cluster execution of {@code pom} leaves out of the cluster jar: what the cluster provides. */
    public static List<Artifact> providedByTheCluster(Path pom) throws IOException {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            doc = f.newDocumentBuilder().parse(pom.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("cannot read " + pom + ": " + e.getMessage(), e);
        }
        NodeList executions = doc.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element e = (Element) executions.item(i);
            NodeList ids = e.getElementsByTagName("id");
            if (ids.getLength() > 0 && ids.item(0).getTextContent().trim().equals(CLUSTER_EXECUTION)) {
                NodeList sets = e.getElementsByTagName("artifactSet");
                if (sets.getLength() == 0) {
                    break;
                }
                NodeList excludes = ((Element) sets.item(0)).getElementsByTagName("exclude");
                List<Artifact> out = new ArrayList<>();
                for (int k = 0; k < excludes.getLength(); k++) {
                    out.add(Artifact.parse(excludes.item(k).getTextContent().trim()));
                }
                return out;
            }
        }
        throw new IOException("no shade execution '" + CLUSTER_EXECUTION + "' with an artifactSet in " + pom);
    }
}
