package dev.parallax.cli.launch;

import java.lang.reflect.InvocationTargetException;

/**
 * The jar's entry point, compiled for an old Java on purpose: started by a java older than
 * Parallax needs (a machine's default JDK is often 17), it says so in one clear line instead of
 * an UnsupportedClassVersionError, then hands over to {@code dev.parallax.cli.Main}.
 */
public final class Launcher {
    private static final int REQUIRED_FEATURE = 25;

    private Launcher() {
    }

    public static void main(String[] args) throws Throwable {
        int feature = Runtime.version().feature();
        if (feature < REQUIRED_FEATURE) {
            System.err.println("parallax: Java " + REQUIRED_FEATURE + " or newer is needed, but this is Java " + feature
                    + " (" + System.getProperty("java.home") + ").");
            System.err.println("Run the jar with a JDK " + REQUIRED_FEATURE + "'s java, e.g. /path/to/jdk-" + REQUIRED_FEATURE
                    + "/bin/java -jar parallax.jar (the repository's ./run finds one by itself).");
            System.exit(2);
        }
        try {
            Class.forName("dev.parallax.cli.Main").getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException failure) {
            throw failure.getCause();
        }
    }
}
