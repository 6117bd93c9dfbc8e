"""A zlib stand-in that counts what its inflaters are given: work measured in bytes handled,
not in time."""


class CountingZlib:
    """zlib, counting the compressed bytes given to every inflater it makes."""

    def __init__(self, zlib) -> None:
        self.zlib, self.fed = zlib, 0
        self.error = zlib.error

    def decompressobj(self, *args):
        inflater, counter = self.zlib.decompressobj(*args), self

        class Counted:
            def decompress(self, data, *limit):
                counter.fed += len(data)
                return inflater.decompress(data, *limit)

            def __getattr__(self, name):
                return getattr(inflater, name)

        return Counted()
