-- Walls (R8.14): remove two of the opponent's walls (one if they have only one on
-- the board), or, if fewer than ten walls are on the board and your supply holds
-- two, place two of yours (R5.2). Either may be declined (R8.14 ruling).
function play(ctx)
  local theirs = ctx:walls(ctx:opponent())
  local modes = {}
  if #theirs > 0 then modes[#modes + 1] = "remove" end
  -- A pair of free edges meeting at a corner (R5.2) is a wall spot.
  if #ctx:walls() < 10 and ctx:supply("walls") >= 2 and ctx:count_wall_spots() > 0 then
    modes[#modes + 1] = "place"
  end
  if #modes == 0 then
    ctx:log("Walls: no opposing wall to remove and no walls to place; nothing happens")
    return
  end
  local mode = ctx:ask_option("Walls: remove the opponent's walls or place two of yours?", modes, { optional = true })
  if mode == nil then return end
  if mode == "place" then
    ctx:place_walls(ctx:ask_wall_spot("Walls: where do your two walls go?"))
    return
  end
  -- Two of the opponent's walls, one at a time; the only one goes without asking.
  for _ = 1, math.min(2, #theirs) do
    ctx:remove_wall(ctx:ask_edge("Walls: which of the opponent's walls goes?", ctx:walls(ctx:opponent())))
  end
end
