package io.flinkivm.examples.command;

import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version from the jar's Maven descriptor, or "development build" when run from classes. */
public final class Version implements IVersionProvider {
    private static final String POM_PROPERTIES = "/META-INF/maven/io.flinkivm/flink-ivm-examples/pom.properties";

    @Override
    public String[] getVersion() throws Exception {
        String version = "development build";
        try (InputStream in = Version.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                version = p.getProperty("version", version);
            }
        }
        return new String[] {"flink-ivm " + version};
    }
}
