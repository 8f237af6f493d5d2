-- Wormhole: for the user's next turn, their checkers on the side edges may
-- step across them. No move rule says "wrap around", so the effect offers
-- these moves from its script: extra_moves(ctx, effect) runs whenever the
-- user's moves are listed while the effect lasts, and returns moves as text.

local OPPOSITE = { n = "s", s = "n", e = "w", w = "e" }
-- Facing each way, the direction on the left hand.
local LEFT_OF = { n = "w", e = "n", s = "e", w = "s" }

function play(ctx)
  ctx:add_effect{ lasts = 1 }
end

-- From `sq` on the edge at `side`, one row `way` and across to the far edge.
local function across(ctx, sq, way, side)
  local ahead = ctx:neighbour(sq, way)
  if ahead == nil then
    return nil
  end
  local far, away = ahead, OPPOSITE[side]
  while ctx:neighbour(far, away) do
    far = ctx:neighbour(far, away)
  end
  return far
end

function extra_moves(ctx, effect)
  local me = ctx:player()
  local forward = ctx:orientation()
  if me == "light" then
    forward = OPPOSITE[forward]
  end
  local sides = { LEFT_OF[forward], OPPOSITE[LEFT_OF[forward]] }
  local moves = {}
  for _, sq in ipairs(ctx:checker_squares{ owner = me, hippo = false }) do
    for _, side in ipairs(sides) do
      if ctx:neighbour(sq, side) == nil then
        local ways = { forward }
        if ctx:checker(sq).kind ~= "pawn" then
          ways[2] = OPPOSITE[forward]
        end
        for _, way in ipairs(ways) do
          local to = across(ctx, sq, way, side)
          if to and ctx:is_empty(to) then
            moves[#moves + 1] = sq .. "-" .. to
          end
        end
      end
    end
  end
  return moves
end
