package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PluginVersionTest {

    @Test
    void answersTheImplementationVersionOfTheJarHoldingTheClass() {
        String junitVersion = Test.class.getPackage().getImplementationVersion();

        assertThat(junitVersion).as("JUnit's jar names its version in its manifest").isNotBlank();
        assertThat(PluginVersion.of(Test.class)).isEqualTo(junitVersion);
    }

    @Test
    void saysUnknownForAClassLoadedFromADirectory() {
        assertThat(PluginVersion.of(PluginVersionTest.class)).isEqualTo(PluginVersion.UNKNOWN);
    }
}
