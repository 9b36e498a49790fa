package dev.quarantine.streams.query;

import static dev.quarantine.streams.query.StoreErrorCategory.FATAL;
import static dev.quarantine.streams.query.StoreErrorCategory.MIGRATED;
import static dev.quarantine.streams.query.StoreErrorCategory.RETRYABLE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one ranking of store errors, row by row: FATAL, then RETRYABLE, then MIGRATED. */
class StoreErrorCategoryTest {

    @Test
    void fatalOutranksRetryableAndMigrated() {
        assertThat(FATAL.outranks(RETRYABLE)).isTrue();
        assertThat(FATAL.outranks(MIGRATED)).isTrue();
    }

    @Test
    void retryableOutranksMigratedButNotFatal() {
        assertThat(RETRYABLE.outranks(MIGRATED)).isTrue();
        assertThat(RETRYABLE.outranks(FATAL)).isFalse();
    }

    @Test
    void migratedOutranksNothing() {
        assertThat(MIGRATED.outranks(RETRYABLE)).isFalse();
        assertThat(MIGRATED.outranks(FATAL)).isFalse();
    }

    @Test
    void noCategoryOutranksItself() {
        assertThat(StoreErrorCategory.values()).allSatisfy(category -> assertThat(category.outranks(category))
                .as("%s over itself", category).isFalse());
    }
}
