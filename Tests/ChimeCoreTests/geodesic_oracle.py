"""The independent judge of distances for RegionMonitoringTests: Karney's GeographicLib (Debian's
python3-geographiclib) on the WGS 84 ellipsoid. Reads the file its second argument names:
  inverse: lines "LAT1 LON1 LAT2 LON2"  ->  the distance in metres
  direct:  lines "LAT LON AZIMUTH METRES" -> "LAT2 LON2", the point that far along that azimuth
"""
import sys

from geographiclib.geodesic import Geodesic

mode, path = sys.argv[1], sys.argv[2]
for line in open(path):
    a, b, c, d = (float(field) for field in line.split())
    if mode == "inverse":
        print(repr(Geodesic.WGS84.Inverse(a, b, c, d)["s12"]))
    else:
        point = Geodesic.WGS84.Direct(a, b, c, d)
        print(repr(point["lat2"]), repr(point["lon2"]))
