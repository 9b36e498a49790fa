package dev.quarantine.connect.rest.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;

/**
 * Which share groups a discovery round reads the configs of: at most {@code perRound}, in name order, starting after
 * the last group the previous round read and wrapping around. Whoever may create groups decides how many there are,
 * so one round's work is bounded; and since every listed group comes up within {@code ceil(groups / perRound)} rounds,
 * groups named to sort first cannot keep the others from ever being read (a plain "first N by name" could).
 */
final class GroupRotation {

    private final int perRound;
    private String lastRead;

    GroupRotation(int perRound) {
        if (perRound < 1) {
            throw new IllegalArgumentException("perRound must be at least 1, was " + perRound);
        }
        this.perRound = perRound;
    }

    /** The groups of {@code listed} to read this round; remembers the last one for the next round. */
    List<String> next(SortedSet<String> listed) {
        if (listed.size() <= perRound) {
            lastRead = null;
            return List.copyOf(listed);
        }
        List<String> chosen = new ArrayList<>(perRound);
        SortedSet<String> after = lastRead == null ? listed : listed.tailSet(lastRead + '\0');
        for (String group : after) {
            if (chosen.size() == perRound) {
                break;
            }
            chosen.add(group);
        }
        for (String group : listed) { // wrap around
            if (chosen.size() == perRound) {
                break;
            }
            chosen.add(group);
        }
        lastRead = chosen.get(chosen.size() - 1);
        return chosen;
    }
}
