"""A TCP proxy that loses the connection: a network that drops mid-transaction.

For the ledger's lost-connection test: listens on 127.0.0.1 on a free port,
writes the port to PORT_FILE, and relays each connection to 127.0.0.1:TARGET
until the client has sent more than CUT bytes, then closes both sides without
a word, as a dropped link does. Serves until killed.

usage: python3 tests/peers/cutting_proxy.py PORT_FILE TARGET CUT
"""

import os
import socket
import sys
import threading


def relay(client, cut, target):
    server = socket.create_connection(("127.0.0.1", target))
    sent = 0

    def back():
        try:
            while data := server.recv(65536):
                client.sendall(data)
        except OSError:
            pass

    threading.Thread(target=back, daemon=True).start()
    try:
        while data := client.recv(65536):
            sent += len(data)
            if sent > cut:
                break
            server.sendall(data)
    except OSError:
        pass
    for s in (client, server):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()


def main():
    port_file, target, cut = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    listener = socket.create_server(("127.0.0.1", 0))
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=relay, args=(client, cut, target), daemon=True).start()


main()
