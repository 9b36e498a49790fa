package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.config.ConfigRules;

/**
 * The wait after an abort of a slot's own that the task uses is the one timeout validation counts in a transaction
 * attempt ({@link ConfigRules#AFTER_ABORT_BOUND}): a longer wait in the task would make validation accept settings
 * with which a put outlives the poll interval.
 */
class AfterAbortBoundTest {

    @Test
    void theSlotsWaitAfterItsOwnAbortIsTheOneValidationCounts() {
        assertThat(TaskSlots.AFTER_ABORT_BOUND).isEqualTo(ConfigRules.AFTER_ABORT_BOUND);
    }
}
