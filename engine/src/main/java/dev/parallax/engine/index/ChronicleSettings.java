package dev.parallax.engine.index;

/**
 * Switches off Chronicle's usage analytics and announcer before any Chronicle class initializes:
 * a database library never phones home. The analytics artifact is also excluded from the build;
 * the properties stop the libraries from even trying. Callers that set the properties themselves
 * (e.g. {@code -Dchronicle.analytics.disable=true} on the command line) keep their values.
 * This class refers to no Chronicle type, so loading it cannot trigger Chronicle's own start-up.
 */
final class ChronicleSettings {
    static final String ANALYTICS_PROPERTY = "chronicle.analytics.disable";
    static final String ANNOUNCER_PROPERTY = "chronicle.announcer.disable";

    static {
        if (System.getProperty(ANALYTICS_PROPERTY) == null) {
            System.setProperty(ANALYTICS_PROPERTY, "true");
        }
        if (System.getProperty(ANNOUNCER_PROPERTY) == null) {
            System.setProperty(ANNOUNCER_PROPERTY, "true");
        }
    }

    private ChronicleSettings() {
    }

    /** Runs the static initializer (idempotent); call before touching any Chronicle class. */
    static void apply() {
        // The work happens once, in the static initializer.
    }
}
