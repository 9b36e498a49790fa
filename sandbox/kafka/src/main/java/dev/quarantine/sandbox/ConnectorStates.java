package dev.quarantine.sandbox;

import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;

/** Waits for a connector's states as its status endpoint reports them, failing with the last status seen. */
final class ConnectorStates {

    private ConnectorStates() {
    }

    /** Waits until the connector and {@code tasks} tasks are RUNNING. */
    static void awaitRunning(ConnectRest rest, String name, int tasks, Duration timeout) {
        JsonNode[] last = new JsonNode[1];
        Await.until(() -> "connector " + name + " with " + tasks + " RUNNING tasks; last status: " + last[0], timeout,
                () -> {
                    last[0] = statusOrNull(rest, name);
                    return last[0] != null && isRunning(last[0], tasks);
                });
    }

    /** Waits until a task of the connector is FAILED; returns its status (state, trace). */
    static JsonNode awaitFailedTask(ConnectRest rest, String name, Duration timeout) {
        JsonNode[] last = new JsonNode[1];
        return Await.value(() -> "a FAILED task of connector " + name + "; last status: " + last[0], timeout, () -> {
            last[0] = statusOrNull(rest, name);
            if (last[0] != null) {
                for (JsonNode task : last[0].path("tasks")) {
                    if ("FAILED".equals(task.path("state").asText())) {
                        return task;
                    }
                }
            }
            return null;
        });
    }

    /** Whether the status shows the connector and exactly {@code tasks} tasks RUNNING. */
    static boolean isRunning(JsonNode status, int tasks) {
        if (!"RUNNING".equals(status.path("connector").path("state").asText())) {
            return false;
        }
        int running = 0;
        for (JsonNode task : status.path("tasks")) {
            if (!"RUNNING".equals(task.path("state").asText())) {
                return false;
            }
            running++;
        }
        return running == tasks;
    }

    /** The status, or null while the worker does not know the connector yet (404). */
    private static JsonNode statusOrNull(ConnectRest rest, String name) {
        try {
            return rest.status(name);
        } catch (IllegalStateException e) {
            return null;
        }
    }
}
