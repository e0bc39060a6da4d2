"""The one reader of `host bench --format json` records for the scripts in this folder.

An exploration keeps its bench records in a tarball beside its summary script; the
script imports this module (`sys.path` gets this folder first) and reads them with
`records`, then picks what it compares from `medians` or `measurements`."""
import io, json, re, statistics, tarfile

def records(path, pattern):
    """The JSON records in the tarball at `path` whose member names match the regular
    expression `pattern` (searched, not anchored), parsed: `{match.groups(): record}`."""
    out = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            m = re.search(pattern, member.name)
            if m:
                out[m.groups()] = json.load(io.TextIOWrapper(tar.extractfile(member)))
    return out

def measurements(record):
    """A bench record's sums, `{n: {kernel: measurement}}`; a measurement holds
    `times_ms` and, for a kernel with several entries, the `entry` launched."""
    return {r["sums"]["n"]: {m["kernel"]: m for m in r["sums"]["measurements"]} for r in record["results"]["rows"]}

def medians(record):
    """A bench record's median times, `{n: {kernel: milliseconds}}`."""
    return {n: {k: statistics.median(m["times_ms"]) for k, m in row.items()} for n, row in measurements(record).items()}
