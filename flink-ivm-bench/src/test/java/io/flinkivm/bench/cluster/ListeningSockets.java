package io.flinkivm.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The TCP sockets processes listen on, from Linux's {@code /proc} (a process's socket inodes in
 * {@code /proc/PID/fd}, the listening sockets in {@code /proc/net/tcp} and {@code tcp6}).
 */
final class ListeningSockets {
    private ListeningSockets() {}

    /** For each pid, the addresses it listens on as {@code a.b.c.d:port} (IPv6 as {@code [hex]:port}). */
    static Map<Long, List<String>> of(List<Long> pids) throws IOException {
        Map<String, String> byInode = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A")) { // LISTEN
                    byInode.put(f[9], address(f[1]));
                }
            }
        }
        Map<Long, List<String>> out = new HashMap<>();
        for (long pid : pids) {
            List<String> addresses = new ArrayList<>();
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : fds.toList()) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException e) {
                        continue; // closed meanwhile
                    }
                    if (target.startsWith("socket:[")) {
                        String a = byInode.get(target.substring(8, target.length() - 1));
                        if (a != null) {
                            addresses.add(a);
                        }
                    }
                }
            }
            out.put(pid, addresses);
        }
        return out;
    }

    /** {@code 0100007F:1F90} → {@code 127.0.0.1:8080}; an IPv4-mapped IPv6 address as its IPv4 form. */
    private static String address(String hexAddressAndPort) {
        String[] ap = hexAddressAndPort.split(":");
        int port = Integer.parseInt(ap[1], 16);
        String hex = ap[0];
        if (hex.length() == 32 && hex.startsWith("0000000000000000FFFF0000")) {
            hex = hex.substring(24);
        }
        if (hex.length() == 8) {
            long v = Long.parseLong(hex, 16);
            // Little-endian on x86: the first byte of the address is the lowest.
            return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff) + ":"
                    + port;
        }
        return "[" + hex + "]:" + port;
    }
}
