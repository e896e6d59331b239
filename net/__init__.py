"""Network play: a host runs the authoritative table, players join over WebSocket (``docs/network.md``).

Layers: ``protocol`` (the messages), ``table`` (the table without networking), ``host`` and ``client`` (the
transports, each on a thread of its own), ``discovery`` (UDP beacons on the local network). ``net`` imports
``saves`` and ``engine``, never pygame or ``app``.
"""
