import Stitcher
