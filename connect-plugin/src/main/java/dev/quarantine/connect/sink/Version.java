package dev.quarantine.connect.sink;

/** This plugin's version, from its jar's manifest. */
final class Version {

    private Version() {
    }

    static String get() {
        String version = Version.class.getPackage().getImplementationVersion();
        return version == null ? "unknown (not running from the plugin jar)" : version;
    }
}
