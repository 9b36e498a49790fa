package dev.quarantine.connect.rest.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/** One test per rule of {@link GroupRotation}. */
class GroupRotationTest {

    @Test
    void readsEveryGroupEachRoundWhileThereAreNoMoreThanPerRound() {
        GroupRotation rotation = new GroupRotation(3);
        assertThat(rotation.next(groups("b", "a", "c"))).containsExactly("a", "b", "c");
        assertThat(rotation.next(groups("b", "a", "c"))).containsExactly("a", "b", "c");
    }

    @Test
    void readsAtMostPerRoundStartingAfterTheLastReadAndWrapsAround() {
        GroupRotation rotation = new GroupRotation(2);
        TreeSet<String> listed = groups("a", "b", "c", "d", "e");
        assertThat(rotation.next(listed)).containsExactly("a", "b");
        assertThat(rotation.next(listed)).containsExactly("c", "d");
        assertThat(rotation.next(listed)).containsExactly("e", "a");
        assertThat(rotation.next(listed)).containsExactly("b", "c");
    }

    @Test
    void groupsCreatedToSortFirstDoNotKeepTheOthersFromBeingRead() {
        GroupRotation rotation = new GroupRotation(2);
        assertThat(rotation.next(groups("orders", "payments", "refunds"))).containsExactly("orders", "payments");
        // a hostile principal creates groups named to sort before the real ones
        TreeSet<String> flooded = groups("0001", "0002", "0003", "0004", "orders", "payments", "refunds");
        assertThat(rotation.next(flooded)).containsExactly("refunds", "0001");
        List<String> seen = new java.util.ArrayList<>();
        for (int round = 0; round < 4; round++) {
            seen.addAll(rotation.next(flooded));
        }
        assertThat(seen).containsAll(flooded);
    }

    @Test
    void aLastReadGroupThatWasDeletedResumesAtTheNextName() {
        GroupRotation rotation = new GroupRotation(2);
        assertThat(rotation.next(groups("a", "b", "c", "d"))).containsExactly("a", "b");
        assertThat(rotation.next(groups("a", "c", "d"))).containsExactly("c", "d");
    }

    @Test
    void refusesAnEmptyRound() {
        assertThatThrownBy(() -> new GroupRotation(0)).hasMessageContaining("perRound");
    }

    private static TreeSet<String> groups(String... names) {
        return new TreeSet<>(List.of(names));
    }
}
